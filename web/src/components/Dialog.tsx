import { useEffect, useId, useRef, type ReactNode } from "react";

/**
 * A modal `dialog` named by its heading: opens with showModal (focus moves inside, the page
 * behind is inert), closes with the "Close" button or Escape, and gives focus back.
 */
export function Dialog({
  title,
  onClose,
  children,
  closeLabel = "Close",
  wide = false,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  closeLabel?: string;
  /** Use the screen's width (side-by-side content) rather than a reading column. */
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement as HTMLElement | null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      opener?.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby={headingId}
      className={wide ? "wide" : undefined}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="dialog-head">
        <h2 id={headingId}>
          {title}
        </h2>
        <button type="button" onClick={onClose}>
          {closeLabel}
        </button>
      </div>
      {children}
    </dialog>
  );
}
