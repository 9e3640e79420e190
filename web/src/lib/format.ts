/** How numbers, money and times read in the portal. */

/** Cents as dollars: 120 → "$1.20"; below a cent, enough digits to show it is not zero. */
export function dollars(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return "—";
  const value = cents / 100;
  if (value !== 0 && Math.abs(value) < 0.01) return `$${value.toPrecision(2)}`;
  return `$${value.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** A rate in [0, 1] as a percentage: 0.8667 → "86.7%". */
export function percent(rate: number | null | undefined, digits = 1): string {
  if (rate === null || rate === undefined) return "—";
  return `${(rate * 100).toFixed(digits)}%`;
}

/** Signed points with a real minus sign: -11.67 → "−11.7 points". */
export function points(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined) return "—";
  const text = Math.abs(value).toFixed(digits);
  const sign = value < 0 && Number(text) !== 0 ? "−" : value > 0 && Number(text) !== 0 ? "+" : "";
  return `${sign}${text} points`;
}

/** A rate's size in points, unsigned: 0.034 → "3.4 points" (an MDE, an ε). */
export function ratePoints(rate: number, digits = 1): string {
  return `${(rate * 100).toFixed(digits)} points`;
}

/** "just now", "5 min ago", "2 h ago", "3 days ago" from an ISO time, relative to `now`. */
export function ago(iso: string, now: number = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 45) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(hours / 24);
  return `${days} day${days === 1 ? "" : "s"} ago`;
}

/** The exact time, for a title beside a relative one. */
export function exactTime(iso: string): string {
  return new Date(iso).toISOString().replace("T", " ").replace(/\.\d+Z$/, " UTC");
}

/** Seconds left as "about 2 min" / "about 40 s". */
export function timeLeft(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return "—";
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min`;
  return `about ${Math.round(minutes / 60)} h`;
}

/** 1234 → "1,234". */
export function count(n: number): string {
  return n.toLocaleString("en-US");
}
