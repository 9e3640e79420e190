import { useEffect, useId, useRef, type ReactNode } from "react";

/**
 * A modal `alertdialog` asking before an action that cannot be taken back (a Re-run spends
 * money, a Cancel stops a run): named by its question, described by its consequences. Focus
 * starts on the way back, so Enter or Escape never acts by accident.
 */
export function ConfirmDialog({
  title,
  confirmLabel,
  backLabel = "Keep it",
  busy = false,
  onConfirm,
  onClose,
  children,
}: {
  title: string;
  confirmLabel: string;
  backLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const back = useRef<HTMLButtonElement>(null);
  const headingId = useId();
  const bodyId = useId();
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement as HTMLElement | null;
    if (dialog && !dialog.open) dialog.showModal();
    back.current?.focus();
    return () => {
      dialog?.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={headingId}
      aria-describedby={bodyId}
      className="confirm"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id={headingId}>{title}</h2>
      <div id={bodyId}>{children}</div>
      <div className="row">
        <button type="button" className="primary" disabled={busy} onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button type="button" ref={back} onClick={onClose}>
          {backLabel}
        </button>
      </div>
    </dialog>
  );
}
