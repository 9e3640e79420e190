/** `/settings`: the workspace's settings, members, tokens, model connections and webhooks. */
import { ConnectionsTable } from "./ConnectionsTable";
import { MembersTable } from "./MembersTable";
import { TokensTable } from "./TokensTable";
import { WebhooksTable } from "./WebhooksTable";
import { WorkspaceRegion } from "./WorkspaceRegion";
import { useSession } from "../../lib/session";
import "./settings.css";

export default function SettingsPage() {
  const session = useSession();
  return (
    <>
      <h1>Settings</h1>
      <WorkspaceRegion onSaved={session.refresh} />
      <ConnectionsTable />
      <MembersTable />
      <TokensTable />
      <WebhooksTable />
    </>
  );
}
