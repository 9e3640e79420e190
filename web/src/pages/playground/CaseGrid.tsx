/** "Run on 5 cases": a row per case, a column per pane, each answer marked pass or fail by
 * the checks of the prompt's gate settings. Answers are untrusted text. */
import type { PlaygroundCellFieldsFragment } from "../../gql/graphql";
import { TableScroll } from "../../components/TableScroll";
import { cellFacts } from "./PaneCard";

export function CaseGrid({ cells, panes }: { cells: PlaygroundCellFieldsFragment[]; panes: number }) {
  const caseIds = [...new Set(cells.map((c) => c.caseId ?? ""))];
  return (
    <TableScroll>
      <table aria-label="Cases">
        <thead>
          <tr>
            <th scope="col">Case</th>
            {Array.from({ length: panes }, (_, i) => (
              <th key={i} scope="col">
                Pane {i + 1}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {caseIds.map((caseId) => (
            <tr key={caseId}>
              <th scope="row">{caseId}</th>
              {Array.from({ length: panes }, (_, i) => {
                const cell = cells.find((c) => c.caseId === caseId && c.paneIndex === i);
                if (!cell) return <td key={i} />;
                return (
                  <td key={i}>
                    {cell.passed !== null && cell.passed !== undefined && (
                      <span className={cell.passed ? "chip good" : "chip bad"}>{cell.passed ? "Pass" : "Fail"}</span>
                    )}
                    <pre className="text">{cell.output}</pre>
                    {cell.error && <p className="error">{cell.error}</p>}
                    {cell.status === "DONE" && <p className="muted">{cellFacts(cell)}</p>}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
