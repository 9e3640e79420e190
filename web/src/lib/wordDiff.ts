/** Which words of an output differ from the candidate's (the case dialog's "Diff" switch). */
import { diffWordsWithSpace } from "diff";

export interface Piece {
  text: string;
  /** Words this output has that the candidate's output has not. */
  changed: boolean;
}

/** `output` split into pieces, the words not in `reference` marked; removed words left out. */
export function wordDiff(reference: string, output: string): Piece[] {
  const pieces: Piece[] = [];
  for (const part of diffWordsWithSpace(reference, output)) {
    if (part.removed) continue;
    const last = pieces[pieces.length - 1];
    const changed = Boolean(part.added);
    if (last && last.changed === changed) last.text += part.value;
    else pieces.push({ text: part.value, changed });
  }
  return pieces;
}
