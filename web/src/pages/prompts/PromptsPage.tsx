/**
 * `/prompts` ("Prompts and models"): prompt templates, model configs and rubrics, each a table
 * of assets; `?asset=ID` opens one (AssetPanel). Everyone reads, MEMBER writes.
 */
import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useQuery } from "../../lib/query";
import { Ago } from "../../components/Ago";
import { ErrorNotice } from "../../components/ErrorNotice";
import { RoleButton } from "../../components/RoleButton";
import { EMPTY_DRAFT, type EditableKind } from "./assetContent";
import { AssetPanel } from "./AssetPanel";
import { AssetsOfKindQuery, ReleasesUsingQuery } from "./promptsDocuments";
import { VersionDialog } from "./VersionDialog";
import "../settings/settings.css";
import "./prompts.css";
import { TableScroll } from "../../components/TableScroll";

const KINDS: { kind: EditableKind; title: string; one: string }[] = [
  { kind: "PROMPT_TEMPLATE", title: "Prompt templates", one: "prompt template" },
  { kind: "MODEL_CONFIG", title: "Model configs", one: "model config" },
  { kind: "RUBRIC", title: "Rubrics", one: "rubric" },
];

export default function PromptsPage() {
  return (
    <>
      <h1>Prompts and models</h1>
      {KINDS.map((k) => (
        <AssetsOfKind key={k.kind} {...k} />
      ))}
    </>
  );
}

function AssetsOfKind({ kind, title, one }: { kind: EditableKind; title: string; one: string }) {
  const [params, setParams] = useSearchParams();
  const [{ data, error }, refetch] = useQuery({ query: AssetsOfKindQuery, variables: { kind } });
  const [{ data: releases, error: releasesError }] = useQuery({ query: ReleasesUsingQuery });
  const [creating, setCreating] = useState(false);
  const reload = () => refetch({ requestPolicy: "network-only" });
  const assets = data?.assets.edges.map((e) => e.node) ?? [];
  const open = assets.find((a) => a.id === params.get("asset"));
  const baseOf = (assetId: string): string | null =>
    releases?.releases.edges.find((e) =>
      e.node.bindings.some((b) => b.assetVersion.asset.id === assetId),
    )?.node.id ?? null;
  const headingId = `assets-${kind}`;
  const newTitle = `New ${one}`;
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <TableScroll>
        <table aria-label={title}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Versions</th>
              <th scope="col">Latest</th>
            </tr>
          </thead>
          <tbody>
            {assets.length === 0 && (
              <tr>
                <td colSpan={3} className="muted">
                  None yet.
                </td>
              </tr>
            )}
            {assets.map((a) => {
              const latest = a.versions[a.versions.length - 1];
              return (
                <tr key={a.id} aria-current={a.id === open?.id ? "true" : undefined}>
                  <td>
                    <Link to={`/prompts?asset=${a.id}`}>{a.name}</Link>
                    {a.builtIn && <span className="chip">built-in</span>}
                  </td>
                  <td>{a.versions.length}</td>
                  <td>{latest ? <Ago iso={latest.createdAt} /> : "—"}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
      {error && <ErrorNotice error={error} />}
      <RoleButton needs="MEMBER" onClick={() => setCreating(true)}>
        {newTitle}
      </RoleButton>
      {open && (
        <AssetPanel
          key={`${open.id}:${open.versions.length}`}
          kind={kind}
          asset={open}
          baseReleaseId={releases || releasesError ? baseOf(open.id) : undefined}
          onSaved={reload}
        />
      )}
      {creating && (
        <VersionDialog
          kind={kind}
          title={newTitle}
          assetId={null}
          start={EMPTY_DRAFT}
          onClose={() => setCreating(false)}
          onSaved={(assetId) => {
            setCreating(false);
            reload();
            setParams({ asset: assetId });
          }}
        />
      )}
    </section>
  );
}
