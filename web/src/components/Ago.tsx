import { ago, exactTime } from "../lib/format";

/** "2 h ago", with the exact time as its title (and machine-readable datetime). */
export function Ago({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={exactTime(iso)}>
      {ago(iso)}
    </time>
  );
}
