import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from "react";
import { Navigate, Route, Routes, useLocation, useNavigate } from "react-router";
import { Provider } from "urql";
import { Layout } from "./components/Layout";
import { forgetToken, storedToken, storeToken, tokenFromFragment } from "./lib/auth";
import { makeClient } from "./lib/client";
import { AuditPage } from "./pages/audit/AuditPage";
import { ComparisonPage } from "./pages/comparison/ComparisonPage";
import { ComparisonsPage } from "./pages/comparisons/ComparisonsPage";
import { NewComparisonPage } from "./pages/comparisons/NewComparisonPage";
import { DatasetPage } from "./pages/datasets/DatasetPage";
import { DatasetsPage } from "./pages/datasets/DatasetsPage";
import { ExperimentPage } from "./pages/experiments/ExperimentPage";
import { ExperimentsPage } from "./pages/experiments/ExperimentsPage";
import { RunDiffPage } from "./pages/experiments/RunDiffPage";
import { NotFoundPage } from "./pages/NotFoundPage";
import { ReleasesPage } from "./pages/releases/ReleasesPage";
import { ReviewPage } from "./pages/review/ReviewPage";
import { SignInPage, type Refusal } from "./pages/SignInPage";
import { TracePage } from "./pages/traces/TracePage";
import { TracesPage } from "./pages/traces/TracesPage";
import { LivePage } from "./pages/live/LivePage";
import { LiveComparisonPage } from "./pages/live/LiveComparisonPage";
import { NewLivePage } from "./pages/live/NewLivePage";

/** Where to go after signing in: the page that sent the visitor to /sign-in, if any. */
function returnTo(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === "string" && from.startsWith("/") && !from.startsWith("/sign-in")
    ? from
    : "/comparisons";
}

// The set-up pages load on first visit: the first load stays small (docs/portal.md's bars).
const SettingsPage = lazy(() => import("./pages/settings/SettingsPage"));
const PromptsPage = lazy(() => import("./pages/prompts/PromptsPage"));
const PlaygroundPage = lazy(() => import("./pages/playground/PlaygroundPage"));

function Loading() {
  return <p className="muted">Loading…</p>;
}

export function App() {
  const navigate = useNavigate();
  const location = useLocation();
  const [token, setToken] = useState<string | null>(() => storedToken());
  const [refused, setRefused] = useState(false);
  const [via, setVia] = useState<Exclude<Refusal, null>>("form");
  const [connectionLost, setConnectionLost] = useState(false);
  // Signing out is not being sent away from a page: sign-in then starts afresh.
  const [signedOut, setSignedOut] = useState(false);

  // A sign-in link's token (`#token=…`), on load or pasted over the open page: taken, then
  // removed from the address bar before anything else renders.
  const linkToken = tokenFromFragment(location.hash);
  const [taken, setTaken] = useState<string | null>(null);
  if (linkToken !== taken) {
    setTaken(linkToken);
    if (linkToken) {
      setVia("link");
      setRefused(false);
      setToken(linkToken);
    }
  }
  useEffect(() => {
    if (!linkToken) return;
    storeToken(linkToken);
    navigate(
      { pathname: location.pathname, search: location.search },
      { replace: true, state: location.state },
    );
  }, [linkToken, location.pathname, location.search, location.state, navigate]);

  const refuse = useCallback(() => {
    forgetToken();
    setToken(null);
    setRefused(true);
  }, []);

  const portal = useMemo(
    () => (token ? makeClient(token, refuse, setConnectionLost) : null),
    [token, refuse],
  );
  useEffect(() => () => portal?.dispose(), [portal]);

  const signIn = useCallback(
    (value: string) => {
      storeToken(value);
      setVia("form");
      setRefused(false);
      setSignedOut(false);
      setToken(value);
      navigate(returnTo(location.state), { replace: true });
    },
    [navigate, location.state],
  );
  const signOut = useCallback(() => {
    forgetToken();
    setToken(null);
    setRefused(false);
    setSignedOut(true);
    navigate("/sign-in", { replace: true, state: null });
  }, [navigate]);

  if (linkToken) return null;
  if (!portal) {
    if (location.pathname !== "/sign-in") {
      const from = location.pathname + location.search;
      return <Navigate to="/sign-in" replace state={signedOut ? null : { from }} />;
    }
    return <SignInPage refused={refused ? via : null} onSignIn={signIn} />;
  }
  return (
    <Provider value={portal.client}>
      <Routes>
        <Route path="/sign-in" element={<Navigate to={returnTo(location.state)} replace />} />
        <Route element={<Layout signOut={signOut} connectionLost={connectionLost} />}>
          <Route index element={<Navigate to="/comparisons" replace />} />
          <Route path="/comparisons" element={<ComparisonsPage />} />
          <Route path="/comparisons/new" element={<NewComparisonPage />} />
          <Route path="/comparisons/:id" element={<ComparisonPage />} />
          <Route path="/comparisons/:id/review" element={<ReviewPage />} />
          <Route path="/experiments" element={<ExperimentsPage />} />
          <Route path="/experiments/:id" element={<ExperimentPage />} />
          <Route path="/experiments/:id/diff" element={<RunDiffPage />} />
          <Route path="/datasets" element={<DatasetsPage />} />
          <Route path="/datasets/:id" element={<DatasetPage />} />
          <Route path="/releases" element={<ReleasesPage />} />
          <Route path="/audit" element={<AuditPage />} />
          <Route path="/traces" element={<TracesPage />} />
          <Route path="/traces/:id" element={<TracePage />} />
          <Route path="/live" element={<LivePage />} />
          <Route path="/live/new" element={<NewLivePage />} />
          <Route path="/live/:id" element={<LiveComparisonPage />} />
          <Route
            path="/settings"
            element={
              <Suspense fallback={<Loading />}>
                <SettingsPage />
              </Suspense>
            }
          />
          <Route
            path="/prompts"
            element={
              <Suspense fallback={<Loading />}>
                <PromptsPage />
              </Suspense>
            }
          />
          <Route
            path="/playground"
            element={
              <Suspense fallback={<Loading />}>
                <PlaygroundPage />
              </Suspense>
            }
          />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </Provider>
  );
}
