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
import { SignInPage } from "./pages/SignInPage";

// The set-up pages load on first visit: the first load stays small (SPEC §7's bars).
const SettingsPage = lazy(() => import("./pages/settings/SettingsPage"));
const PromptsPage = lazy(() => import("./pages/prompts/PromptsPage"));

function Loading() {
  return <p className="muted">Loading…</p>;
}

export function App() {
  const navigate = useNavigate();
  const location = useLocation();
  const [token, setToken] = useState<string | null>(() => {
    const fromLink = tokenFromFragment(window.location.hash);
    if (fromLink) {
      storeToken(fromLink);
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
    }
    return storedToken();
  });
  const [refused, setRefused] = useState(false);
  const [connectionLost, setConnectionLost] = useState(false);

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
      setRefused(false);
      setToken(value);
      navigate("/comparisons", { replace: true });
    },
    [navigate],
  );
  const signOut = useCallback(() => {
    forgetToken();
    setToken(null);
    setRefused(false);
    navigate("/sign-in", { replace: true });
  }, [navigate]);

  if (!portal) {
    if (location.pathname !== "/sign-in") return <Navigate to="/sign-in" replace />;
    return <SignInPage refused={refused} onSignIn={signIn} />;
  }
  return (
    <Provider value={portal.client}>
      <Routes>
        <Route path="/sign-in" element={<Navigate to="/comparisons" replace />} />
        <Route element={<Layout signOut={signOut} connectionLost={connectionLost} />}>
          <Route index element={<Navigate to="/comparisons" replace />} />
          <Route path="/comparisons" element={<ComparisonsPage />} />
          <Route path="/comparisons/new" element={<NewComparisonPage />} />
          <Route path="/comparisons/:id" element={<ComparisonPage />} />
          <Route path="/experiments" element={<ExperimentsPage />} />
          <Route path="/experiments/:id" element={<ExperimentPage />} />
          <Route path="/experiments/:id/diff" element={<RunDiffPage />} />
          <Route path="/datasets" element={<DatasetsPage />} />
          <Route path="/datasets/:id" element={<DatasetPage />} />
          <Route path="/releases" element={<ReleasesPage />} />
          <Route path="/audit" element={<AuditPage />} />
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
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </Provider>
  );
}
