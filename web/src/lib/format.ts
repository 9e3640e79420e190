/** How numbers, money and times read in the portal. */

/**
 * Money, one rule wherever shipwise shows money (the server's `server.money.dollars` for the
 * CLI and the report and diff pages; both checked against money.examples.json): from $0.10 up,
 * dollars with two decimals ("$1,234.56"); below that, cents with two significant digits and no
 * trailing zeros ("1.6 ¢", "0.5 ¢", "0.00054 ¢"), so an amount that is not zero never reads
 * "$0.00" nor hides behind a row of zeros. Halves round up, on the number's exact value (what
 * `toFixed` and `toExponential` do).
 */
export function dollars(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return "—";
  const small = Math.abs(cents);
  if (small === 0) return "$0.00";
  const sign = cents < 0 ? "−" : "";
  if (small < 10) {
    const exponent = Number(small.toExponential(1).split("e")[1]);
    const shown = small.toFixed(Math.max(0, 1 - exponent));
    if (Number(shown) < 10) return `${sign}${withoutTrailingZeros(shown)} ¢`;
  }
  const [whole, fraction] = Math.abs(cents / 100).toFixed(2).split(".");
  return `${sign}$${Number(whole).toLocaleString("en-US")}.${fraction}`;
}

function withoutTrailingZeros(text: string): string {
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
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
