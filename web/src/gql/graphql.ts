/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type AddAssetVersionInput = {
  assetId: string;
  /** The kind's shape (docs/domain.md), checked. */
  content: unknown;
};

export type Adequacy =
  | 'ADEQUATE'
  | 'INSUFFICIENT'
  | 'UNDERPOWERED';

/** What a crash's admitted calls without a recorded outcome do to their run. */
export type AmbiguousOutcomes =
  | 'COUNT_AS_MISSING'
  | 'FAIL_RUN';

export type AssetKind =
  | 'EVALUATION_SUITE'
  | 'MODEL_CONFIG'
  | 'PROMPT_TEMPLATE'
  | 'RUBRIC'
  | 'TOOL_SCHEMA';

export type BindingRole =
  | 'MODEL_CONFIG'
  | 'PROMPT_TEMPLATE'
  | 'RUBRIC'
  | 'TOOLS';

/** Failure analysis on majority outcomes (seed 000); INCOMPLETE: not usable. */
export type CaseClassification =
  | 'AGREE'
  | 'BOTH_WRONG'
  | 'IMPROVED'
  | 'INCOMPLETE'
  | 'REGRESSED';

/** A comparison's cases by their movement: REGRESSIONS (the default), IMPROVEMENTS, DIVERGED (either), ALL. */
export type CaseFilter =
  | 'ALL'
  | 'CHANGED'
  | 'DIVERGED'
  | 'IMPROVED'
  | 'IMPROVEMENTS'
  | 'REGRESSED'
  | 'REGRESSIONS';

export type CheckKind =
  | 'CONTAINS'
  | 'EXACT_MATCH'
  | 'JSON_SCHEMA'
  | 'JUDGE_RUBRIC'
  | 'MAX_LLM_CALLS'
  | 'MAX_STEPS'
  | 'NO_TOOL'
  | 'TOOL_CALL'
  | 'TOOL_CALLED'
  | 'TOOL_ORDER';

export type CohortKind =
  | 'RELEASE'
  | 'VARIANT';

export type CohortOverrideInput = {
  assetVersionId: string;
  role: BindingRole;
};

export type CohortState =
  | 'DONE'
  | 'QUEUED'
  | 'RUNNING'
  | 'STOPPED';

/** RELEASE takes `releaseId`; VARIANT `baseReleaseId` + overrides. */
export type ComparisonCohortInput = {
  baseReleaseId?: string | null | undefined;
  kind: CohortKind;
  label?: string | null | undefined;
  overrides?: Array<CohortOverrideInput> | null | undefined;
  releaseId?: string | null | undefined;
};

export type ComparisonSampleInput = {
  seed?: number;
  size: number;
};

export type ComparisonStatus =
  | 'CANCELLED'
  | 'DONE'
  | 'FAILED'
  | 'RUNNING'
  | 'SETUP';

export type ConnectionKind =
  | 'ANTHROPIC'
  | 'OPENAI_COMPATIBLE'
  | 'SIMULATED';

export type ConnectionStatus =
  | 'READY'
  | 'UNREACHABLE'
  | 'UNVERIFIED';

export type CreateAssetInput = {
  description?: string | null | undefined;
  kind: AssetKind;
  name: string;
};

/** Cohort 0 is the candidate; every other cohort is a baseline. */
export type CreateComparisonInput = {
  budgetCapCents?: number | null | undefined;
  /** Check specs; default `[{"kind": "CONTAINS"}]`. */
  checks?: unknown;
  cohorts: Array<ComparisonCohortInput>;
  datasetId?: string | null | undefined;
  datasetVersionId?: string | null | undefined;
  /** The gate's ε: a change must exceed it (points). */
  epsilonPoints?: number;
  experimentId?: string | null | undefined;
  label?: string | null | undefined;
  missingFieldPolicy?: MissingFieldPolicy;
  pairwise?: PairwiseInput | null | undefined;
  sample?: ComparisonSampleInput | null | undefined;
  /** The ship policy, frozen at creation; default the workspace's `defaultShipPolicy` (docs/decision.md). */
  shipPolicy?: ShipPolicyInput | null | undefined;
  split?: Split;
  /** Sequential stopping; NONE (every case) by default. */
  stopping?: StoppingInput | null | undefined;
  /** NO_CHANGE needs the interval for Δ within ± this (points). */
  targetEffectPoints?: number;
  trialsPerCase?: number;
  variables?: Array<VariableMappingInput> | null | undefined;
};

export type CreateDatasetFromTracesInput = {
  /** Add a version to this dataset; or give `name`. */
  datasetId?: string | null | undefined;
  description?: string | null | undefined;
  expectedAttribute?: string | null | undefined;
  expectedFrom?: ExpectedFrom;
  filter: TraceFilter;
  /** A new dataset's name. */
  name?: string | null | undefined;
  redact?: Array<Redaction>;
  /** Regular expressions (Python syntax) replaced by `[redacted]`, beside the workspace's `redactionPatterns`. */
  redactPatterns?: Array<string>;
  sample: TraceSampleInput;
};

export type CreateDatasetInput = {
  description?: string | null | undefined;
  name: string;
};

/** A canary to decide while it runs (docs/live.md). */
export type CreateLiveComparisonInput = {
  baselineReleases: Array<string>;
  /** The release attribute (`shipwise.release`, else `service.version`). */
  candidateRelease: string;
  /** Output or trajectory check specs; default `[{"kind": "CONTAINS"}]`. */
  checks?: unknown;
  judgeDailyCapCents?: number | null | undefined;
  /** The share of traces judge checks grade (0 to 1). */
  judgeSampleRate?: number;
  label?: string | null | undefined;
  maxDays?: number;
  /** The traces' `service.name`. */
  service: string;
  shipPolicy?: ShipPolicyInput | null | undefined;
};

export type CreateModelConnectionInput = {
  /** Not SIMULATED: sent as `Authorization: Bearer` (OPENAI_COMPATIBLE) or `x-api-key` (ANTHROPIC); stored encrypted, never returned. */
  apiKey?: string | null | undefined;
  /** OPENAI_COMPATIBLE: the URL that `/models` and `/chat/completions` hang off, e.g. `https://api.openai.com/v1`. ANTHROPIC: the Messages API's, `https://api.anthropic.com` when omitted. */
  baseUrl?: string | null | undefined;
  /** Not SIMULATED: extra headers on every request (Azure's `api-key`, `anthropic-beta`); values stored encrypted, never returned. */
  headers?: Array<HeaderInput> | null | undefined;
  inputCentsPerMillionTokens?: number;
  kind: ConnectionKind;
  /** 1–256 calls at once. */
  maxConcurrency?: number;
  monthlyCapCents?: number | null | undefined;
  name: string;
  outputCentsPerMillionTokens?: number;
  /** SIMULATED only; defaults when omitted. */
  simulation?: SimulationInput | null | undefined;
};

export type CreateReleaseInput = {
  bindings: Array<ReleaseBindingInput>;
  description?: string | null | undefined;
  name: string;
};

export type CriterionKind =
  | 'GAIN'
  | 'GUARDRAIL'
  | 'QUALITY';

export type CriterionReason =
  | 'JUDGE_UNCALIBRATED'
  | 'NOT_MEASURED'
  | 'ZERO_BASELINE';

export type CriterionStatus =
  | 'MET'
  | 'UNCERTAIN'
  | 'VIOLATED';

/** OPEN while cases are appended; SEALED never changes again. */
export type DatasetVersionState =
  | 'DISCARDED'
  | 'OPEN'
  | 'SEALED';

export type DecisionMetric =
  | 'COST_PER_CASE'
  | 'FAILED_OR_MISSING'
  | 'LATENCY_P50'
  | 'LATENCY_P95'
  | 'OUTPUT_TOKENS'
  | 'PASS_RATE';

export type DecisionOutcome =
  | 'DONT_SHIP'
  | 'MORE_DATA'
  | 'NO_DECISION'
  | 'SHIP';

export type DecisionReason =
  | 'INSUFFICIENT_CASES'
  | 'JUDGE_UNCALIBRATED'
  | 'NOT_RUN_TO_END'
  | 'NO_BASELINE'
  | 'UNLIKELY_TO_PASS';

/** A run diff's cases by their status (seed 001): CHANGED = REGRESSED or IMPROVED. */
export type DiffCaseFilter =
  | 'ALL'
  | 'CHANGED'
  | 'IMPROVED'
  | 'REGRESSED';

/** A run-diff case's status (seed 001): its movement by pass flip, pass fraction or score beyond ε, else UNCHANGED; or ADDED/REMOVED: on one side only. */
export type DiffCaseStatus =
  | 'ADDED'
  | 'IMPROVED'
  | 'NO_CHANGE'
  | 'REGRESSED'
  | 'REMOVED'
  | 'UNCHANGED';

/** One evaluator on one run-diff case (seed 001). */
export type EvaluatorStatus =
  | 'IMPROVED'
  | 'REGRESSED'
  | 'UNCHANGED';

/** NONE; ATTRIBUTE: `expectedAttribute` (default `shipwise.expected`); OUTPUT_WITH_FEEDBACK: the trace's output where every feedback score on it is above 0. */
export type ExpectedFrom =
  | 'ATTRIBUTE'
  | 'NONE'
  | 'OUTPUT_WITH_FEEDBACK';

export type ExportFormat =
  | 'CSV'
  | 'JSONL';

/** What an export holds: COMPARISON_CASES (one row per case, cohort and trial), RUN_ITEMS (one per item and trial), RUN_DIFF (`id` the candidate run, `baselineRunId` the baseline). */
export type ExportTarget =
  | 'COMPARISON_CASES'
  | 'RUN_DIFF'
  | 'RUN_ITEMS';

export type FollowUpState =
  | 'OPEN'
  | 'RESOLVED';

/** Ratios candidate ÷ baseline, or FAILED_OR_MISSING: a difference in points. */
export type GuardrailMetric =
  | 'COST_PER_CASE'
  | 'FAILED_OR_MISSING'
  | 'LATENCY_P50'
  | 'LATENCY_P95'
  | 'OUTPUT_TOKENS';

/** An extra request header; the value is write-only. */
export type HeaderInput = {
  name: string;
  value: string;
};

/** RUNNING until SHIP or DONT_SHIP (DECIDED), maxDays (EXPIRED) or a cancel. */
export type LiveComparisonStatus =
  | 'CANCELLED'
  | 'DECIDED'
  | 'EXPIRED'
  | 'RUNNING';

export type MetricDirection =
  | 'HIGHER_IS_BETTER'
  | 'LOWER_IS_BETTER';

/** LEAVE_OUT runs only cases having every mapped field; REFUSE refuses any gap. */
export type MissingFieldPolicy =
  | 'LEAVE_OUT'
  | 'REFUSE';

export type PairwiseInput = {
  judgeModelConfigVersionId: string;
  rubricVersionId: string;
};

export type PlaygroundCellStatus =
  | 'DONE'
  | 'FAILED'
  | 'QUEUED'
  | 'STOPPED'
  | 'STREAMING';

/** One pane: a saved prompt version, or a draft's messages. */
export type PlaygroundPaneInput = {
  /** A draft's prompt (its gate settings grade the case grid). */
  assetId?: string | null | undefined;
  connectionId: string;
  maxTokens?: number;
  /** A draft's `[{role, content}]`, checked as a version's. */
  messages?: unknown;
  model: string;
  /** A saved PROMPT_TEMPLATE version; else `messages` is a draft. */
  promptVersionId?: string | null | undefined;
  temperature?: number | null | undefined;
};

/** Every pane on one input, or on a dataset's first cases. */
export type PlaygroundRunInput = {
  caseCount?: number;
  /** "Run on 5 cases": the dataset whose first Dev cases run. */
  datasetId?: string | null | undefined;
  panes: Array<PlaygroundPaneInput>;
  /** The variables' values, `{name: value}` (at most 20,000 characters in all). */
  variables?: unknown;
};

export type PlaygroundRunStatus =
  | 'DONE'
  | 'RUNNING'
  | 'STOPPED';

export type PreviewBlockerCode =
  | 'CONNECTION_NOT_READY'
  | 'EMPTY_SELECTION'
  | 'HOSTED_RUNS_OFF'
  | 'MISSING_FIELDS'
  | 'OVER_CALL_LIMIT'
  | 'ROLE_TOO_LOW'
  | 'SAME_CONFIGURATION';

export type PreviewWarningCode =
  | 'CASES_LEFT_OUT'
  | 'FEW_TRIALS'
  | 'HOLDOUT_LOOKS'
  | 'MAY_STOP_EARLY'
  | 'NO_VERDICT';

/** A prompt's gate settings; checks default to CONTAINS. */
export type PromptGateSettingsInput = {
  /** Check specs; default `[{"kind": "CONTAINS"}]`. */
  checks?: unknown;
  datasetId?: string | null | undefined;
  shipPolicy?: ShipPolicyInput | null | undefined;
  split?: Split;
  trialsPerCase?: number;
};

/** What is replaced in cases made from traces: EMAIL, PHONE, CARD_NUMBER (13-19 digits passing the Luhn check), API_KEY (OpenAI, Anthropic, AWS, GitHub, Slack, Google, JWT and shipwise shapes) and IP_ADDRESS (v4 and v6). */
export type Redaction =
  | 'API_KEY'
  | 'CARD_NUMBER'
  | 'EMAIL'
  | 'IP_ADDRESS'
  | 'PHONE';

export type ReleaseBindingInput = {
  assetVersionId: string;
  role: BindingRole;
};

/** QUALITY: Δ's low end above 0; COST / LATENCY: the cost / p50 ratio's high end below 1. */
export type RequiredGain =
  | 'COST'
  | 'LATENCY'
  | 'NONE'
  | 'QUALITY';

export type Role =
  | 'ADMIN'
  | 'MEMBER'
  | 'OWNER'
  | 'VIEWER';

export type RunPairing =
  | 'DATASET_ITEM_ID'
  | 'POSITIONAL';

export type RunSource =
  | 'HOSTED'
  | 'IMPORTED';

/** Only COMPLETED runs can be diffed. */
export type RunStatus =
  | 'COMPLETED'
  | 'FAILED'
  | 'RUNNING';

/** A guardrail: `maxIncreasePercent` for a ratio metric, `maxIncreasePoints` for FAILED_OR_MISSING. */
export type ShipGuardrailInput = {
  maxIncreasePercent?: number | null | undefined;
  maxIncreasePoints?: number | null | undefined;
  metric: GuardrailMetric;
};

/** The ship policy, fixed before the first call (docs/decision.md). */
export type ShipPolicyInput = {
  /** Each criterion's one-sided error. */
  alpha?: number;
  /** Up to 8; default [{metric: FAILED_OR_MISSING, maxIncreasePoints: 5}]. */
  guardrails?: Array<ShipGuardrailInput> | null | undefined;
  judge?: ShipPolicyJudgeInput | null | undefined;
  /** δ: the points the candidate may lose against a baseline. */
  qualityMarginPoints?: number;
  requireGain?: RequiredGain;
};

/** When a judge may decide quality (docs/labels.md). */
export type ShipPolicyJudgeInput = {
  minKappa?: number;
  minLabels?: number;
};

/** APPROVE → PROMOTE, HOLD → HOLD, REQUEST_CHANGES → INCONCLUSIVE. */
export type SignOffDecision =
  | 'APPROVE'
  | 'HOLD'
  | 'REQUEST_CHANGES';

/** The sign-off's decision. */
export type SignOffVerdict =
  | 'HOLD'
  | 'INCONCLUSIVE'
  | 'PROMOTE';

/** A SIMULATED connection's behaviour; every field has a default. */
export type SimulationInput = {
  accuracy?: number;
  errorRate?: number;
  latencyMs?: number;
  /** Per-case scripted outputs keyed by datasetItemId. */
  script?: unknown;
  seed?: number;
};

/** DEV to iterate on; HOLDOUT kept back. */
export type Split =
  | 'DEV'
  | 'HOLDOUT';

export type StopReason =
  | 'BUDGET_CAP'
  | 'COMPLETED'
  | 'CONNECTION_CAP'
  | 'DAILY_BUDGET'
  | 'DECIDED_EARLY';

/** Sequential stopping (docs/statistics.md); NONE runs every case. */
export type StoppingInput = {
  /** Error rate over all looks, split across the baselines. */
  alpha?: number;
  /** Fixes the random case order; drawn when not given. */
  caseOrderSeed?: number | null | undefined;
  /** Cases completed in every cohort between looks. */
  lookEveryCases?: number;
  /** The first look, in cases. */
  minCases?: number;
  rule?: StoppingRule;
};

/** ANYTIME_VALID: stop once every baseline's confidence sequence decides. */
export type StoppingRule =
  | 'ANYTIME_VALID'
  | 'NONE';

/** Every field given must hold (AND). */
export type TraceFilter = {
  caseId?: string | null | undefined;
  hasFeedback?: boolean | null | undefined;
  minDurationMs?: number | null | undefined;
  /** One of the models called. */
  model?: string | null | undefined;
  release?: string | null | undefined;
  /** Text in the input, output or root name; or a trace id. */
  search?: string | null | undefined;
  service?: string | null | undefined;
  startedAfter?: string | null | undefined;
  startedBefore?: string | null | undefined;
  status?: TraceStatus | null | undefined;
};

export type TraceSampleInput = {
  /** The span or resource attribute of `stratifyBy: ATTRIBUTE`. */
  attribute?: string | null | undefined;
  /** Drop a trace whose input (case and whitespace folded) was taken already. */
  dedupe?: boolean;
  /** The same seed gives the same cases. */
  seed?: number;
  /** 1 to 100,000 traces. */
  size: number;
  stratifyBy?: TraceStratifyBy | null | undefined;
};

/** A span's or a trace's status (ERROR: any step failed). */
export type TraceStatus =
  | 'ERROR'
  | 'OK';

/** What a step did: `OTHER` for a span no convention names. */
export type TraceStepKind =
  | 'AGENT'
  | 'LLM'
  | 'OTHER'
  | 'RETRIEVAL'
  | 'TOOL';

/** The key a sample is proportional over, at least one trace a stratum. */
export type TraceStratifyBy =
  | 'ATTRIBUTE'
  | 'MODEL'
  | 'RELEASE'
  | 'SERVICE';

export type TrajectoryStepKind =
  | 'AGENT'
  | 'LLM'
  | 'OTHER'
  | 'RETRIEVAL'
  | 'TOOL';

export type TrajectoryStepStatus =
  | 'ERROR'
  | 'OK';

/** A trial: of a comparison (cohortIndex) or of a run (cohortIndex 0). */
export type TrialRefInput = {
  cohortIndex: number;
  comparisonId?: string | null | undefined;
  datasetItemId: string;
  runId?: string | null | undefined;
  trialIndex: number;
};

export type VariableMappingInput = {
  /** `input`, `input.<field>…` or `expected…`. */
  path: string;
  variable: string;
};

/** A baseline's verdict; its `movement` is the same reading. */
export type VerdictOutcome =
  | 'IMPROVED'
  | 'NO_CHANGE'
  | 'NO_VERDICT'
  | 'REGRESSED';

/** FINALIZED once the scorecard is made. */
export type VerdictState =
  | 'FINALIZED'
  | 'NOT_FINALIZED';

export type WebhookDeliveryStatus =
  | 'DELIVERED'
  | 'FAILED'
  | 'PENDING';

export type WebhookEvent =
  | 'COMPARISON_FINISHED'
  | 'COMPARISON_REGRESSED'
  | 'LIVE_COMPARISON_DECIDED'
  | 'LIVE_COMPARISON_GUARDRAIL_VIOLATED'
  | 'RUN_REGRESSED';

export type WorkspaceSettingsInput = {
  allowHostedRuns?: boolean | null | undefined;
  allowSelfSignOff?: boolean | null | undefined;
  ambiguousOutcomes?: AmbiguousOutcomes | null | undefined;
  /** Replaces the whole default policy. */
  defaultShipPolicy?: ShipPolicyInput | null | undefined;
  /** 1 to 2,000,000 (ADMIN); 20,000 for a new workspace. */
  maxCallsPerComparison?: number | null | undefined;
  maxRunningComparisons?: number | null | undefined;
  /** Replaces the list: at most 20 Python regular expressions of at most 200 characters, redacted from datasets made from traces. */
  redactionPatterns?: Array<string> | null | undefined;
  requestsPerMinutePerToken?: number | null | undefined;
  /** 1 to 3,650 days (ADMIN); 30 for a new workspace. */
  traceRetentionDays?: number | null | undefined;
};

export type ExportLinkMutationVariables = Exact<{
  target: ExportTarget;
  id: string;
  format: ExportFormat;
  baselineRunId?: string | null | undefined;
}>;


export type ExportLinkMutation = { exportLink: { url: string } };

export type MeQueryVariables = Exact<{ [key: string]: never; }>;


export type MeQuery = { me: { role: Role, member: { id: string, name: string }, workspace: { id: string, name: string, settings: { allowSelfSignOff: boolean } } } };

export type TrajectorySideStepFragment = { kind: TrajectoryStepKind, name: string, status: TrajectoryStepStatus, model: string | null, toolName: string | null, arguments: unknown, result: unknown, durationMs: number | null, outputMessages: Array<{ role: string, content: string | null, toolCalls: Array<{ name: string, arguments: unknown }> }> };

export type VerdictChipFieldsFragment = { baselineCohortIndex: number, outcome: VerdictOutcome, summary: string };

export type PageInfoFieldsFragment = { hasNextPage: boolean, endCursor: string | null };

export type ShipPolicyFormFieldsFragment = { qualityMarginPoints: number, alpha: number, requireGain: RequiredGain, guardrails: Array<{ metric: GuardrailMetric, maxIncreasePercent: number | null, maxIncreasePoints: number | null }>, judge: { minLabels: number, minKappa: number } };

export type AuditPageQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
  action?: string | null | undefined;
  actorId?: string | null | undefined;
  targetId?: string | null | undefined;
}>;


export type AuditPageQuery = { auditEvents: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node: { id: string, action: string, actorId: string | null, actorRole: string | null, targetType: string, targetId: string | null, details: unknown, createdAt: string } }> } };

export type AuditMembersQueryVariables = Exact<{ [key: string]: never; }>;


export type AuditMembersQuery = { members: { edges: Array<{ node: { id: string, name: string, role: Role } }> } };

export type ResolveFollowUpsMutationVariables = Exact<{
  ids: Array<string> | string;
  note: string;
}>;


export type ResolveFollowUpsMutation = { resolveFollowUps: Array<{ id: string, state: FollowUpState, note: string | null, resolvedAt: string | null, resolvedByMemberId: string | null }> };

export type FollowUpsPageQueryVariables = Exact<{
  id: string;
  first: number;
  after?: string | null | undefined;
}>;


export type FollowUpsPageQuery = { report: { id: string, followUps: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node: { id: string, datasetItemId: string, baselineCohortIndex: number, state: FollowUpState, note: string | null } }> } } };

export type OpenFollowUpsQueryVariables = Exact<{
  id: string;
  first: number;
  after?: string | null | undefined;
}>;


export type OpenFollowUpsQuery = { report: { id: string, followUps: { pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node: { id: string, datasetItemId: string, baselineCohortIndex: number } }> } } };

export type ReportLinkMutationVariables = Exact<{
  id: string;
}>;


export type ReportLinkMutation = { reportLink: { url: string, expiresAt: string } };

export type ReportsRegionQueryVariables = Exact<{
  id: string;
}>;


export type ReportsRegionQuery = { comparison: { id: string, verdict: SignOffVerdict | null, cohorts: Array<{ cohortIndex: number, label: string }>, reports: Array<{ id: string, version: number, createdAt: string, createdByMemberId: string | null, isLatest: boolean, signOff: { id: string, decision: SignOffDecision, verdict: SignOffVerdict, override: boolean, overrideJustification: string | null, signerMemberId: string, signerRole: string, createdAt: string } | null }> }, members: { edges: Array<{ node: { id: string, name: string } }> } };

export type GenerateReportMutationVariables = Exact<{
  comparisonId: string;
}>;


export type GenerateReportMutation = { generateReport: { id: string, version: number } };

export type SignOffMutationVariables = Exact<{
  reportId: string;
  decision: SignOffDecision;
  override: boolean;
  justification?: string | null | undefined;
}>;


export type SignOffMutation = { signOff: { id: string, decision: SignOffDecision, verdict: SignOffVerdict, comparison: { id: string, verdict: SignOffVerdict | null } } };

export type ComparisonDecisionQueryVariables = Exact<{
  id: string;
}>;


export type ComparisonDecisionQuery = { comparison: { id: string, shipPolicy: { qualityMarginPoints: number, alpha: number, registeredAt: string | null, sentence: string }, decision: { outcome: DecisionOutcome, reason: DecisionReason | null, sentence: string, casesNeeded: number | null, usableCases: number, level: number | null, criteria: Array<{ baselineCohortIndex: number, kind: CriterionKind, metric: DecisionMetric, status: CriterionStatus, reason: CriterionReason | null, estimate: number | null, low: number | null, high: number | null, threshold: number, corrected: boolean, sentence: string }> } | null, scorecard: { verdicts: Array<{ baselineCohortIndex: number, passRateDeltaPoints: number, deltaLow: number, deltaHigh: number }> } | null } };

export type ComparisonCaseCountsQueryVariables = Exact<{
  id: string;
  baseline: number;
}>;


export type ComparisonCaseCountsQuery = { comparison: { id: string, regressions: { totalCount: number }, improvements: { totalCount: number }, diverged: { totalCount: number }, all: { totalCount: number } } };

export type ComparisonJudgesQueryVariables = Exact<{
  id: string;
}>;


export type ComparisonJudgesQuery = { comparison: { id: string, reviewProgress: { labelled: number, graded: number }, judgeAgreement: Array<{ checkKey: string, labels: number, agreement: number | null, kappa: number | null, kappaLow: number | null, kappaHigh: number | null, sensitivity: number | null, sensitivityLow: number | null, sensitivityHigh: number | null, specificity: number | null, specificityLow: number | null, specificityHigh: number | null }> } };

export type LabelTrialMutationVariables = Exact<{
  trial: TrialRefInput;
  passed: boolean;
  note?: string | null | undefined;
}>;


export type LabelTrialMutation = { labelTrial: { passed: boolean, note: string | null, judgePassed: boolean | null, createdAt: string, trial: { comparisonId: string | null, cohortIndex: number, datasetItemId: string, trialIndex: number }, labeller: { id: string, name: string } } };

export type ReviewQueueQueryVariables = Exact<{
  id: string;
  first?: number | null | undefined;
}>;


export type ReviewQueueQuery = { reviewQueue: Array<{ input: unknown, expected: unknown, output: string | null, trial: { comparisonId: string | null, cohortIndex: number, datasetItemId: string, trialIndex: number } }>, comparison: { id: string, label: string | null, reviewProgress: { labelled: number, graded: number }, judgeAgreement: Array<{ checkKey: string }> } };

export type ProgressFieldsFragment = { seq: number, status: ComparisonStatus, stopReason: StopReason | null, doneCalls: number, totalCalls: number, failedCalls: number, percent: number, etaSeconds: number | null, spentCentsSoFar: number, cohorts: Array<{ cohortIndex: number, state: CohortState }> };

export type ComparisonPageQueryVariables = Exact<{
  id: string;
}>;


export type ComparisonPageQuery = { comparison: { id: string, label: string | null, status: ComparisonStatus, stopReason: StopReason | null, errorCode: string | null, trialsPerCase: number, caseCount: number, budgetCapCents: number | null, spentCentsSoFar: number, createdAt: string, startedAt: string | null, endedAt: string | null, verdictState: VerdictState, verdictErrorCode: string | null, verdict: SignOffVerdict | null, split: Split, datasetVersion: { id: string, datasetId: string, number: number }, experiment: { id: string, name: string, dailyBudgetCents: number | null }, cohorts: Array<{ cohortIndex: number, label: string, isCandidate: boolean, passRate: number | null }>, progress: { seq: number, status: ComparisonStatus, stopReason: StopReason | null, doneCalls: number, totalCalls: number, failedCalls: number, percent: number, etaSeconds: number | null, spentCentsSoFar: number, cohorts: Array<{ cohortIndex: number, state: CohortState }> }, reports: Array<{ id: string, version: number, signOff: { id: string, decision: SignOffDecision } | null }>, cappedConnections: Array<{ id: string, name: string, monthlyCapCents: number | null }> } };

export type ComparisonScorecardQueryVariables = Exact<{
  id: string;
}>;


export type ComparisonScorecardQuery = { comparison: { id: string, scorecard: { usableCases: number, casesNotRun: number, metrics: Array<{ name: string, direction: MetricDirection, winners: Array<number>, values: Array<{ cohortIndex: number, value: number | null }> }>, overallWinner: { cohortIndex: number | null, reason: string | null }, staleness: { days: number, note: string } | null, confidence: Array<{ cohortIndex: number, passRate: number, low: number, high: number, n: number, adequacy: Adequacy, mde: number }>, trials: Array<{ cohortIndex: number, k: number, passHatK: number, passAtK: number, flips: number, failedOrMissingTrials: number }>, failureAnalysis: { improved: number, regressed: number, bothWrong: number, agree: number }, verdicts: Array<{ baselineCohortIndex: number, outcome: VerdictOutcome, summary: string }> } | null } };

export type ComparisonProgressSubscriptionVariables = Exact<{
  id: string;
  afterSeq?: number | null | undefined;
}>;


export type ComparisonProgressSubscription = { comparisonProgress: { seq: number, status: ComparisonStatus, stopReason: StopReason | null, doneCalls: number, totalCalls: number, failedCalls: number, percent: number, etaSeconds: number | null, spentCentsSoFar: number, cohorts: Array<{ cohortIndex: number, state: CohortState }> } };

export type ComparisonCasesQueryVariables = Exact<{
  id: string;
  filter: CaseFilter;
  baseline?: number | null | undefined;
  first: number;
  after?: string | null | undefined;
}>;


export type ComparisonCasesQuery = { comparison: { id: string, cases: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ cursor: string, node: { ordinal: number, datasetItemId: string, classification: CaseClassification, cohorts: Array<{ cohortIndex: number, passed: boolean | null, passFraction: number | null, score: number | null, trials: Array<{ trialIndex: number, passed: boolean | null, output: string | null, errorCode: string | null }> }> } }> } } };

export type ComparisonDatasetNameQueryVariables = Exact<{
  id: string;
}>;


export type ComparisonDatasetNameQuery = { dataset: { id: string, name: string } };

export type ComparisonCaseDebugQueryVariables = Exact<{
  id: string;
  filter: CaseFilter;
  baseline?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ComparisonCaseDebugQuery = { comparison: { id: string, cases: { edges: Array<{ node: { ordinal: number, datasetItemId: string, input: unknown, expected: unknown, cohorts: Array<{ cohortIndex: number, passed: boolean | null, passFraction: number | null, trials: Array<{ trialIndex: number, passed: boolean | null, output: string | null, latencyMs: number, inputTokens: number, outputTokens: number, costCents: number, errorCode: string | null, checks: Array<{ kind: CheckKind, passed: boolean, score: number }>, trajectory: Array<{ kind: TrajectoryStepKind, name: string, status: TrajectoryStepStatus, model: string | null, toolName: string | null, arguments: unknown, result: unknown, durationMs: number | null, outputMessages: Array<{ role: string, content: string | null, toolCalls: Array<{ name: string, arguments: unknown }> }> }> | null, labels: Array<{ passed: boolean, note: string | null, createdAt: string, labeller: { id: string, name: string } }> }> }> } }> } } };

export type StartComparisonMutationVariables = Exact<{
  id: string;
}>;


export type StartComparisonMutation = { startComparison: { id: string, status: ComparisonStatus } };

export type CancelComparisonMutationVariables = Exact<{
  id: string;
}>;


export type CancelComparisonMutation = { cancelComparison: { id: string, status: ComparisonStatus } };

export type RerunComparisonMutationVariables = Exact<{
  id: string;
}>;


export type RerunComparisonMutation = { rerunComparison: { id: string, status: ComparisonStatus } };

export type FinalizeComparisonMutationVariables = Exact<{
  id: string;
}>;


export type FinalizeComparisonMutation = { finalizeComparison: { id: string, verdictState: VerdictState, verdictErrorCode: string | null } };

export type RerunPreviewQueryVariables = Exact<{
  id: string;
}>;


export type RerunPreviewQuery = { rerunPreview: { totalCalls: number, costBoundCents: number, summary: string, canStart: boolean, blockers: Array<{ code: PreviewBlockerCode, message: string }> } };

export type ComparisonRowFieldsFragment = { id: string, label: string | null, status: ComparisonStatus, stopReason: StopReason | null, createdAt: string, spentCentsSoFar: number, verdictState: VerdictState, decision: { outcome: DecisionOutcome } | null, cohorts: Array<{ cohortIndex: number, label: string, isCandidate: boolean, passRate: number | null }>, scorecard: { verdicts: Array<{ baselineCohortIndex: number, outcome: VerdictOutcome, summary: string }> } | null, progress: { seq: number, doneCalls: number, totalCalls: number } };

export type ComparisonsListQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
  status?: ComparisonStatus | null | undefined;
}>;


export type ComparisonsListQuery = { comparisons: { totalCount: number, edges: Array<{ cursor: string, node: { id: string, label: string | null, status: ComparisonStatus, stopReason: StopReason | null, createdAt: string, spentCentsSoFar: number, verdictState: VerdictState, decision: { outcome: DecisionOutcome } | null, cohorts: Array<{ cohortIndex: number, label: string, isCandidate: boolean, passRate: number | null }>, scorecard: { verdicts: Array<{ baselineCohortIndex: number, outcome: VerdictOutcome, summary: string }> } | null, progress: { seq: number, doneCalls: number, totalCalls: number } } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ComparisonRowQueryVariables = Exact<{
  id: string;
}>;


export type ComparisonRowQuery = { comparison: { id: string, label: string | null, status: ComparisonStatus, stopReason: StopReason | null, createdAt: string, spentCentsSoFar: number, verdictState: VerdictState, decision: { outcome: DecisionOutcome } | null, cohorts: Array<{ cohortIndex: number, label: string, isCandidate: boolean, passRate: number | null }>, scorecard: { verdicts: Array<{ baselineCohortIndex: number, outcome: VerdictOutcome, summary: string }> } | null, progress: { seq: number, doneCalls: number, totalCalls: number } } };

export type RowProgressSubscriptionVariables = Exact<{
  id: string;
  afterSeq?: number | null | undefined;
}>;


export type RowProgressSubscription = { comparisonProgress: { seq: number, status: ComparisonStatus, doneCalls: number, totalCalls: number, spentCentsSoFar: number } };

export type ComparisonsSignOffsQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
  status?: ComparisonStatus | null | undefined;
}>;


export type ComparisonsSignOffsQuery = { comparisons: { edges: Array<{ node: { id: string, reports: Array<{ id: string, signOff: { id: string, decision: SignOffDecision, signerMemberId: string } | null }> } }> }, members: { edges: Array<{ node: { id: string, name: string } }> } };

export type SetupChoicesQueryVariables = Exact<{ [key: string]: never; }>;


export type SetupChoicesQuery = { workspace: { id: string, settings: { defaultShipPolicy: { qualityMarginPoints: number, alpha: number, requireGain: RequiredGain, guardrails: Array<{ metric: GuardrailMetric, maxIncreasePercent: number | null, maxIncreasePoints: number | null }>, judge: { minLabels: number, minKappa: number } } } }, releases: { pageInfo: { hasNextPage: boolean }, edges: Array<{ node: { id: string, name: string } }> }, datasets: { pageInfo: { hasNextPage: boolean }, edges: Array<{ node: { id: string, name: string, latestVersion: { id: string, number: number, caseCount: number } | null, versions: Array<{ id: string, number: number, state: DatasetVersionState, caseCount: number, caseCounts: { dev: number, holdout: number } }> } }> } };

export type AssetVersionsOfKindQueryVariables = Exact<{
  kind: AssetKind;
}>;


export type AssetVersionsOfKindQuery = { assets: { edges: Array<{ node: { id: string, name: string, builtIn: boolean, versions: Array<{ id: string, number: number }> } }> } };

export type ComparisonPreviewQueryVariables = Exact<{
  input: CreateComparisonInput;
}>;


export type ComparisonPreviewQuery = { comparisonPreview: { datasetVersionNumber: number, split: Split, splitCaseCount: number, caseCount: number, leftOutCount: number, trialsPerCase: number, totalCalls: number, costBoundCents: number, summary: string, canStart: boolean, connections: Array<{ connectionId: string, text: string }>, variables: Array<{ variable: string, text: string }>, warnings: Array<{ code: PreviewWarningCode, message: string }>, blockers: Array<{ code: PreviewBlockerCode, message: string }>, shipPolicy: { sentence: string } } };

export type CreateComparisonMutationVariables = Exact<{
  input: CreateComparisonInput;
}>;


export type CreateComparisonMutation = { createComparison: { id: string } };

export type DatasetCasesPageQueryVariables = Exact<{
  id: string;
  first: number;
  after?: string | null | undefined;
}>;


export type DatasetCasesPageQuery = { datasetVersion: { id: string, cases: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ cursor: string, node: { datasetItemId: string, input: unknown, expected: unknown, split: Split, tags: Array<string> } }> } } };

export type DatasetPageQueryVariables = Exact<{
  id: string;
}>;


export type DatasetPageQuery = { dataset: { id: string, name: string, description: string | null, builtIn: boolean, latestVersion: { id: string } | null, versions: Array<{ id: string, number: number, state: DatasetVersionState, caseCount: number, holdoutLooks: number, createdAt: string, sealedAt: string | null, contentHash: string | null, caseCounts: { dev: number, holdout: number } }> } };

export type DatasetsPageQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
}>;


export type DatasetsPageQuery = { datasets: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node: { id: string, name: string, builtIn: boolean, createdAt: string, latestVersion: { id: string, number: number, caseCount: number, sealedAt: string | null } | null } }> } };

export type CreateDatasetMutationVariables = Exact<{
  input: CreateDatasetInput;
}>;


export type CreateDatasetMutation = { createDataset: { id: string } };

export type OpenDatasetVersionMutationVariables = Exact<{
  datasetId: string;
}>;


export type OpenDatasetVersionMutation = { openDatasetVersion: { id: string, number: number } };

export type AppendDatasetCasesMutationVariables = Exact<{
  versionId: string;
  cases: unknown;
  position?: number | null | undefined;
}>;


export type AppendDatasetCasesMutation = { appendDatasetCases: { caseCount: number } };

export type SealDatasetVersionMutationVariables = Exact<{
  versionId: string;
}>;


export type SealDatasetVersionMutation = { sealDatasetVersion: { id: string, number: number, caseCount: number, datasetId: string } };

export type DiscardDatasetVersionMutationVariables = Exact<{
  versionId: string;
}>;


export type DiscardDatasetVersionMutation = { discardDatasetVersion: { id: string, state: DatasetVersionState } };

export type DiscardOpenVersionMutationVariables = Exact<{
  versionId: string;
}>;


export type DiscardOpenVersionMutation = { discardDatasetVersion: { id: string, state: DatasetVersionState } };

export type ExperimentPageQueryVariables = Exact<{
  id: string;
}>;


export type ExperimentPageQuery = { experiment: { id: string, name: string }, runs: { totalCount: number, edges: Array<{ node: { id: string, source: RunSource, status: RunStatus, cohortIndex: number | null, cohortLabel: string | null, releaseName: string | null, comparisonId: string | null, createdAt: string, passRate: { value: number, low: number, high: number } | null } }> } };

export type ExperimentsPageQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
}>;


export type ExperimentsPageQuery = { experiments: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node: { id: string, name: string, dailyBudgetCents: number | null, createdAt: string } }> } };

export type RunDiffCasesPageQueryVariables = Exact<{
  candidate: string;
  baseline: string;
  filter: DiffCaseFilter;
  first: number;
  after?: string | null | undefined;
}>;


export type RunDiffCasesPageQuery = { runDiff: { candidateRunId: string, baselineRunId: string, cases: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ cursor: string, node: { datasetItemId: string | null, position: number, baselinePosition: number | null, status: DiffCaseStatus, passFlip: boolean, candidatePassFraction: number | null, baselinePassFraction: number | null, input: unknown, evaluators: Array<{ name: string, baselineMean: number | null, candidateMean: number | null, delta: number | null, status: EvaluatorStatus }> } }> } } };

export type RunDiffPageQueryVariables = Exact<{
  candidate: string;
  baseline: string;
}>;


export type RunDiffPageQuery = { candidateRun: { id: string, source: RunSource, cohortIndex: number | null, cohortLabel: string | null, releaseName: string | null }, baselineRun: { id: string, source: RunSource, cohortIndex: number | null, cohortLabel: string | null, releaseName: string | null }, runDiff: { candidateRunId: string, baselineRunId: string, summary: { baselinePassRate: number | null, candidatePassRate: number | null, passRateDelta: number | null, deltaLow: number | null, deltaHigh: number | null, method: string, pValue: number, significant: boolean, significanceReason: string, improvedCount: number, regressedCount: number, unchangedCount: number, addedCount: number, removedCount: number, passFlipsToFail: number, passFlipsToPass: number, pairedCount: number, gradedPairCount: number, epsilon: number, pairing: RunPairing, evaluators: Array<{ name: string, pairedCount: number, baselineMean: number, candidateMean: number, delta: number, low: number, high: number, pValue: number, adjustedPValue: number, significant: boolean }> } } };

export type RunDiffTrajectoriesQueryVariables = Exact<{
  candidate: string;
  baseline: string;
  position: number;
  baselinePosition: number;
}>;


export type RunDiffTrajectoriesQuery = { candidateRun: { id: string, item: { position: number, trials: Array<{ traceId: string | null, trajectory: Array<{ kind: TrajectoryStepKind, name: string, status: TrajectoryStepStatus, model: string | null, toolName: string | null, arguments: unknown, result: unknown, durationMs: number | null, outputMessages: Array<{ role: string, content: string | null, toolCalls: Array<{ name: string, arguments: unknown }> }> }> | null }> } | null }, baselineRun: { id: string, item: { position: number, trials: Array<{ traceId: string | null, trajectory: Array<{ kind: TrajectoryStepKind, name: string, status: TrajectoryStepStatus, model: string | null, toolName: string | null, arguments: unknown, result: unknown, durationMs: number | null, outputMessages: Array<{ role: string, content: string | null, toolCalls: Array<{ name: string, arguments: unknown }> }> }> | null }> } | null } };

export type RunDiffItemTrajectoriesFragment = { position: number, trials: Array<{ traceId: string | null, trajectory: Array<{ kind: TrajectoryStepKind, name: string, status: TrajectoryStepStatus, model: string | null, toolName: string | null, arguments: unknown, result: unknown, durationMs: number | null, outputMessages: Array<{ role: string, content: string | null, toolCalls: Array<{ name: string, arguments: unknown }> }> }> | null }> };

export type RunsPageQueryVariables = Exact<{
  experimentId: string;
  first: number;
  after?: string | null | undefined;
}>;


export type RunsPageQuery = { runs: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node: { id: string, source: RunSource, status: RunStatus, itemCount: number, cohortIndex: number | null, cohortLabel: string | null, releaseName: string | null, comparisonId: string | null, createdAt: string, passRate: { value: number, low: number, high: number } | null } }> } };

export type LiveComparisonPageQueryVariables = Exact<{
  id: string;
}>;


export type LiveComparisonPageQuery = { liveComparison: { id: string, label: string | null, service: string, candidateRelease: string, baselineReleases: Array<string>, status: LiveComparisonStatus, startedAt: string, decidedAt: string | null, tracesNeeded: number | null, marginPoints: number, shipPolicy: { sentence: string }, arms: Array<{ release: string, isCandidate: boolean, traces: number, graded: number, passRate: number | null, costPerTrace: number | null, latencyP95Ms: number | null, errorRate: number | null }>, decision: { outcome: DecisionOutcome, sentence: string, level: number | null, criteria: Array<{ baselineCohortIndex: number, kind: CriterionKind, metric: DecisionMetric, status: CriterionStatus, estimate: number | null, low: number | null, high: number | null, threshold: number }> } | null, sequence: Array<{ traces: number, estimate: number, low: number, high: number }> } };

export type LiveComparisonsPageQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
}>;


export type LiveComparisonsPageQuery = { liveComparisons: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node: { id: string, label: string | null, service: string, candidateRelease: string, baselineReleases: Array<string>, status: LiveComparisonStatus, startedAt: string, decision: { outcome: DecisionOutcome } | null } }> } };

export type NewLiveChoicesQueryVariables = Exact<{ [key: string]: never; }>;


export type NewLiveChoicesQuery = { workspace: { id: string, settings: { defaultShipPolicy: { qualityMarginPoints: number, alpha: number, requireGain: RequiredGain, guardrails: Array<{ metric: GuardrailMetric, maxIncreasePercent: number | null, maxIncreasePoints: number | null }>, judge: { minLabels: number, minKappa: number } } } }, services: Array<{ key: string | null, traces: number }>, releases: Array<{ key: string | null, traces: number }> };

export type CreateLiveComparisonMutationVariables = Exact<{
  input: CreateLiveComparisonInput;
}>;


export type CreateLiveComparisonMutation = { createLiveComparison: { id: string } };

export type PlaygroundChoicesQueryVariables = Exact<{ [key: string]: never; }>;


export type PlaygroundChoicesQuery = { assets: { edges: Array<{ node: { id: string, name: string, builtIn: boolean, gateSettings: { datasetId: string | null, split: Split, trialsPerCase: number, checks: unknown, shipPolicy: { qualityMarginPoints: number, alpha: number, requireGain: RequiredGain, guardrails: Array<{ metric: GuardrailMetric, maxIncreasePercent: number | null, maxIncreasePoints: number | null }>, judge: { minLabels: number, minKappa: number } } | null } | null, versions: Array<{ id: string, number: number, content: unknown, variables: Array<string> }> } }> }, modelConnections: { edges: Array<{ node: { id: string, name: string, kind: ConnectionKind, status: ConnectionStatus } }> }, datasets: { edges: Array<{ node: { id: string, name: string } }> } };

export type PlaygroundCellFieldsFragment = { paneIndex: number, caseId: string | null, caseInput: unknown, status: PlaygroundCellStatus, output: string, error: string | null, inputTokens: number, outputTokens: number, costCents: number, latencyMs: number, passed: boolean | null, checks: Array<{ kind: string, passed: boolean }> };

export type PlaygroundRunMutationVariables = Exact<{
  input: PlaygroundRunInput;
}>;


export type PlaygroundRunMutation = { playgroundRun: { id: string, seq: number, status: PlaygroundRunStatus, cells: Array<{ paneIndex: number, caseId: string | null, caseInput: unknown, status: PlaygroundCellStatus, output: string, error: string | null, inputTokens: number, outputTokens: number, costCents: number, latencyMs: number, passed: boolean | null, checks: Array<{ kind: string, passed: boolean }> }> } };

export type StopPlaygroundRunMutationVariables = Exact<{
  id: string;
}>;


export type StopPlaygroundRunMutation = { stopPlaygroundRun: { id: string, seq: number, status: PlaygroundRunStatus, cells: Array<{ paneIndex: number, caseId: string | null, caseInput: unknown, status: PlaygroundCellStatus, output: string, error: string | null, inputTokens: number, outputTokens: number, costCents: number, latencyMs: number, passed: boolean | null, checks: Array<{ kind: string, passed: boolean }> }> } };

export type PlaygroundRunProgressSubscriptionVariables = Exact<{
  id: string;
}>;


export type PlaygroundRunProgressSubscription = { playgroundRunProgress: { id: string, seq: number, status: PlaygroundRunStatus, cells: Array<{ paneIndex: number, caseId: string | null, caseInput: unknown, status: PlaygroundCellStatus, output: string, error: string | null, inputTokens: number, outputTokens: number, costCents: number, latencyMs: number, passed: boolean | null, checks: Array<{ kind: string, passed: boolean }> }> } };

export type PlaygroundCasesQueryVariables = Exact<{
  id: string;
}>;


export type PlaygroundCasesQuery = { dataset: { id: string, latestVersion: { id: string, cases: { edges: Array<{ node: { datasetItemId: string, input: unknown } }> } } | null } };

export type AssetsOfKindQueryVariables = Exact<{
  kind: AssetKind;
}>;


export type AssetsOfKindQuery = { assets: { totalCount: number, edges: Array<{ node: { id: string, name: string, description: string | null, builtIn: boolean, createdAt: string, gateSettings: { datasetId: string | null, split: Split, trialsPerCase: number, checks: unknown, shipPolicy: { qualityMarginPoints: number, alpha: number, requireGain: RequiredGain, guardrails: Array<{ metric: GuardrailMetric, maxIncreasePercent: number | null, maxIncreasePoints: number | null }>, judge: { minLabels: number, minKappa: number } } | null } | null, versions: Array<{ id: string, number: number, createdAt: string, content: unknown, variables: Array<string> }> } }> } };

export type CreateAssetMutationVariables = Exact<{
  input: CreateAssetInput;
}>;


export type CreateAssetMutation = { createAsset: { id: string } };

export type AddAssetVersionMutationVariables = Exact<{
  input: AddAssetVersionInput;
}>;


export type AddAssetVersionMutation = { addAssetVersion: { id: string, number: number, variables: Array<string> } };

export type ConnectionChoicesQueryVariables = Exact<{ [key: string]: never; }>;


export type ConnectionChoicesQuery = { modelConnections: { edges: Array<{ node: { id: string, name: string, simulated: boolean } }> } };

export type ReleasesUsingQueryVariables = Exact<{ [key: string]: never; }>;


export type ReleasesUsingQuery = { releases: { edges: Array<{ node: { id: string, name: string, bindings: Array<{ role: BindingRole, assetVersion: { id: string, asset: { id: string } } }> } }> } };

export type CreateReleaseMutationVariables = Exact<{
  input: CreateReleaseInput;
}>;


export type CreateReleaseMutation = { createRelease: { id: string, name: string } };

export type SetPromptGateSettingsMutationVariables = Exact<{
  assetId: string;
  settings: PromptGateSettingsInput;
}>;


export type SetPromptGateSettingsMutation = { setPromptGateSettings: { id: string, gateSettings: { datasetId: string | null, split: Split, trialsPerCase: number, checks: unknown, shipPolicy: { qualityMarginPoints: number, alpha: number, requireGain: RequiredGain, guardrails: Array<{ metric: GuardrailMetric, maxIncreasePercent: number | null, maxIncreasePoints: number | null }>, judge: { minLabels: number, minKappa: number } } | null } | null } };

export type GateDatasetsQueryVariables = Exact<{ [key: string]: never; }>;


export type GateDatasetsQuery = { workspace: { id: string, settings: { defaultShipPolicy: { qualityMarginPoints: number, alpha: number, requireGain: RequiredGain, guardrails: Array<{ metric: GuardrailMetric, maxIncreasePercent: number | null, maxIncreasePoints: number | null }>, judge: { minLabels: number, minKappa: number } } } }, datasets: { edges: Array<{ node: { id: string, name: string } }> } };

export type ReleasesPageQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
}>;


export type ReleasesPageQuery = { releases: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node: { id: string, name: string, description: string | null, createdAt: string, bindings: Array<{ role: BindingRole, assetVersion: { id: string, number: number, asset: { id: string, name: string, builtIn: boolean } } }> } }> } };

export type WorkspaceSettingsFieldsFragment = { allowHostedRuns: boolean, allowSelfSignOff: boolean, maxRunningComparisons: number, requestsPerMinutePerToken: number, maxCallsPerComparison: number, ambiguousOutcomes: AmbiguousOutcomes, defaultShipPolicy: { qualityMarginPoints: number, alpha: number, requireGain: RequiredGain, guardrails: Array<{ metric: GuardrailMetric, maxIncreasePercent: number | null, maxIncreasePoints: number | null }>, judge: { minLabels: number, minKappa: number } } };

export type WorkspaceSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type WorkspaceSettingsQuery = { workspace: { id: string, name: string, settings: { allowHostedRuns: boolean, allowSelfSignOff: boolean, maxRunningComparisons: number, requestsPerMinutePerToken: number, maxCallsPerComparison: number, ambiguousOutcomes: AmbiguousOutcomes, defaultShipPolicy: { qualityMarginPoints: number, alpha: number, requireGain: RequiredGain, guardrails: Array<{ metric: GuardrailMetric, maxIncreasePercent: number | null, maxIncreasePoints: number | null }>, judge: { minLabels: number, minKappa: number } } } } };

export type UpdateWorkspaceSettingsMutationVariables = Exact<{
  input: WorkspaceSettingsInput;
}>;


export type UpdateWorkspaceSettingsMutation = { updateWorkspaceSettings: { id: string, settings: { allowHostedRuns: boolean, allowSelfSignOff: boolean, maxRunningComparisons: number, requestsPerMinutePerToken: number, maxCallsPerComparison: number, ambiguousOutcomes: AmbiguousOutcomes, defaultShipPolicy: { qualityMarginPoints: number, alpha: number, requireGain: RequiredGain, guardrails: Array<{ metric: GuardrailMetric, maxIncreasePercent: number | null, maxIncreasePoints: number | null }>, judge: { minLabels: number, minKappa: number } } } } };

export type MembersQueryVariables = Exact<{ [key: string]: never; }>;


export type MembersQuery = { members: { totalCount: number, edges: Array<{ node: { id: string, name: string, email: string | null, role: Role, createdAt: string } }> } };

export type AddMemberMutationVariables = Exact<{
  name: string;
  role: Role;
  email?: string | null | undefined;
}>;


export type AddMemberMutation = { addMember: { id: string } };

export type SetMemberRoleMutationVariables = Exact<{
  memberId: string;
  role: Role;
}>;


export type SetMemberRoleMutation = { setMemberRole: { id: string, role: Role } };

export type RemoveMemberMutationVariables = Exact<{
  memberId: string;
}>;


export type RemoveMemberMutation = { removeMember: { id: string } };

export type TokensQueryVariables = Exact<{ [key: string]: never; }>;


export type TokensQuery = { workspace: { id: string, tokens: { totalCount: number, edges: Array<{ node: { id: string, name: string, prefix: string, memberId: string, createdAt: string, revokedAt: string | null } }> } } };

export type CreateTokenMutationVariables = Exact<{
  name: string;
  memberId?: string | null | undefined;
}>;


export type CreateTokenMutation = { createToken: { secret: string, token: { id: string } } };

export type RevokeTokenMutationVariables = Exact<{
  id: string;
}>;


export type RevokeTokenMutation = { revokeToken: { id: string, revokedAt: string | null } };

export type ModelConnectionsQueryVariables = Exact<{ [key: string]: never; }>;


export type ModelConnectionsQuery = { modelConnections: { totalCount: number, edges: Array<{ node: { id: string, name: string, kind: ConnectionKind, baseUrl: string | null, hasApiKey: boolean, simulated: boolean, inputCentsPerMillionTokens: number, outputCentsPerMillionTokens: number, monthlyCapCents: number | null, maxConcurrency: number, status: ConnectionStatus, checkedAt: string | null, monthToDateSpentCents: number } }> } };

export type CreateModelConnectionMutationVariables = Exact<{
  input: CreateModelConnectionInput;
}>;


export type CreateModelConnectionMutation = { createModelConnection: { id: string, status: ConnectionStatus } };

export type CheckModelConnectionMutationVariables = Exact<{
  id: string;
}>;


export type CheckModelConnectionMutation = { checkModelConnection: { id: string, status: ConnectionStatus, checkedAt: string | null } };

export type WebhooksQueryVariables = Exact<{ [key: string]: never; }>;


export type WebhooksQuery = { webhooks: { totalCount: number, edges: Array<{ node: { id: string, url: string, events: Array<WebhookEvent>, experimentId: string | null, enabled: boolean, createdAt: string, deliveries: { totalCount: number, edges: Array<{ node: { id: string, event: WebhookEvent, subjectId: string, status: WebhookDeliveryStatus, attemptCount: number, createdAt: string, deliveredAt: string | null, attempts: Array<{ number: number, httpStatus: number | null, errorCode: string | null }> } }> } } }> } };

export type CreateWebhookMutationVariables = Exact<{
  url: string;
  secret: string;
  events: Array<WebhookEvent> | WebhookEvent;
}>;


export type CreateWebhookMutation = { createWebhook: { id: string } };

export type RedeliverWebhookMutationVariables = Exact<{
  deliveryId: string;
}>;


export type RedeliverWebhookMutation = { redeliverWebhook: { id: string, status: WebhookDeliveryStatus } };

export type TracePageQueryVariables = Exact<{
  id: string;
}>;


export type TracePageQuery = { trace: { id: string, service: string | null, release: string | null, startedAt: string, durationMs: number, status: TraceStatus, rootName: string | null, input: string | null, output: string | null, llmCalls: number, toolCalls: number, inputTokens: number, outputTokens: number, costCents: number, caseId: string | null, steps: Array<{ id: string, kind: TraceStepKind, name: string, startedAt: string, durationMs: number, status: TraceStatus, errorType: string | null, model: string | null, inputTokens: number | null, outputTokens: number | null, costCents: number | null, toolName: string | null, arguments: unknown, result: unknown, parentId: string | null, inputMessages: Array<{ role: string, content: string | null, toolCalls: Array<{ id: string | null, name: string, arguments: unknown }> }>, outputMessages: Array<{ role: string, content: string | null, toolCalls: Array<{ id: string | null, name: string, arguments: unknown }> }> }> } };

export type TracesPageQueryVariables = Exact<{
  first: number;
  after?: string | null | undefined;
  filter?: TraceFilter | null | undefined;
}>;


export type TracesPageQuery = { traces: { totalCount: number, pageInfo: { hasNextPage: boolean, endCursor: string | null }, edges: Array<{ node: { id: string, startedAt: string, service: string | null, release: string | null, input: string | null, output: string | null, stepCount: number, inputTokens: number, outputTokens: number, costCents: number, durationMs: number, status: TraceStatus } }> } };

export type TraceCountQueryVariables = Exact<{
  filter?: TraceFilter | null | undefined;
}>;


export type TraceCountQuery = { traces: { totalCount: number } };

export type WritableDatasetsQueryVariables = Exact<{ [key: string]: never; }>;


export type WritableDatasetsQuery = { datasets: { edges: Array<{ node: { id: string, name: string, builtIn: boolean } }> } };

export type AddTraceToDatasetMutationVariables = Exact<{
  traceId: string;
  datasetId: string;
  expected?: string | null | undefined;
}>;


export type AddTraceToDatasetMutation = { addTraceToDataset: { id: string, number: number, state: DatasetVersionState, caseCount: number } };

export type PreviewDatasetFromTracesQueryVariables = Exact<{
  input: CreateDatasetFromTracesInput;
}>;


export type PreviewDatasetFromTracesQuery = { previewDatasetFromTraces: { matched: number, taken: number, duplicates: number, withoutInput: number, redacted: number, withExpected: number, strata: Array<{ key: string | null, matched: number, taken: number }> } };

export type CreateDatasetFromTracesMutationVariables = Exact<{
  input: CreateDatasetFromTracesInput;
}>;


export type CreateDatasetFromTracesMutation = { createDatasetFromTraces: { taken: number, dataset: { id: string, name: string } | null, version: { id: string, number: number, caseCount: number } | null } };

export const PageInfoFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageInfoFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]} as unknown as DocumentNode<PageInfoFieldsFragment, unknown>;
export const ProgressFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProgressFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ComparisonProgress"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"stopReason"}},{"kind":"Field","name":{"kind":"Name","value":"doneCalls"}},{"kind":"Field","name":{"kind":"Name","value":"totalCalls"}},{"kind":"Field","name":{"kind":"Name","value":"failedCalls"}},{"kind":"Field","name":{"kind":"Name","value":"percent"}},{"kind":"Field","name":{"kind":"Name","value":"etaSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"spentCentsSoFar"}},{"kind":"Field","name":{"kind":"Name","value":"cohorts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}}]}}]} as unknown as DocumentNode<ProgressFieldsFragment, unknown>;
export const VerdictChipFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerdictChipFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaselineVerdict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"baselineCohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"summary"}}]}}]} as unknown as DocumentNode<VerdictChipFieldsFragment, unknown>;
export const ComparisonRowFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ComparisonRowFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Comparison"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"stopReason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"spentCentsSoFar"}},{"kind":"Field","name":{"kind":"Name","value":"verdictState"}},{"kind":"Field","name":{"kind":"Name","value":"decision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"outcome"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cohorts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"isCandidate"}},{"kind":"Field","name":{"kind":"Name","value":"passRate"}}]}},{"kind":"Field","name":{"kind":"Name","value":"scorecard"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verdicts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerdictChipFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"progress"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"doneCalls"}},{"kind":"Field","name":{"kind":"Name","value":"totalCalls"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerdictChipFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaselineVerdict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"baselineCohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"summary"}}]}}]} as unknown as DocumentNode<ComparisonRowFieldsFragment, unknown>;
export const TrajectorySideStepFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TrajectorySideStep"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrajectoryStep"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"arguments"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"outputMessages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"toolCalls"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"arguments"}}]}}]}}]}}]} as unknown as DocumentNode<TrajectorySideStepFragment, unknown>;
export const RunDiffItemTrajectoriesFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RunDiffItemTrajectories"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RunItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"trials"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"traceId"}},{"kind":"Field","name":{"kind":"Name","value":"trajectory"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TrajectorySideStep"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TrajectorySideStep"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrajectoryStep"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"arguments"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"outputMessages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"toolCalls"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"arguments"}}]}}]}}]}}]} as unknown as DocumentNode<RunDiffItemTrajectoriesFragment, unknown>;
export const PlaygroundCellFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PlaygroundCellFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PlaygroundCell"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"paneIndex"}},{"kind":"Field","name":{"kind":"Name","value":"caseId"}},{"kind":"Field","name":{"kind":"Name","value":"caseInput"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"costCents"}},{"kind":"Field","name":{"kind":"Name","value":"latencyMs"}},{"kind":"Field","name":{"kind":"Name","value":"passed"}},{"kind":"Field","name":{"kind":"Name","value":"checks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"passed"}}]}}]}}]} as unknown as DocumentNode<PlaygroundCellFieldsFragment, unknown>;
export const ShipPolicyFormFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ShipPolicyFormFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ShipPolicy"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"qualityMarginPoints"}},{"kind":"Field","name":{"kind":"Name","value":"alpha"}},{"kind":"Field","name":{"kind":"Name","value":"requireGain"}},{"kind":"Field","name":{"kind":"Name","value":"guardrails"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"metric"}},{"kind":"Field","name":{"kind":"Name","value":"maxIncreasePercent"}},{"kind":"Field","name":{"kind":"Name","value":"maxIncreasePoints"}}]}},{"kind":"Field","name":{"kind":"Name","value":"judge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minLabels"}},{"kind":"Field","name":{"kind":"Name","value":"minKappa"}}]}}]}}]} as unknown as DocumentNode<ShipPolicyFormFieldsFragment, unknown>;
export const WorkspaceSettingsFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WorkspaceSettingsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WorkspaceSettings"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"allowHostedRuns"}},{"kind":"Field","name":{"kind":"Name","value":"allowSelfSignOff"}},{"kind":"Field","name":{"kind":"Name","value":"maxRunningComparisons"}},{"kind":"Field","name":{"kind":"Name","value":"requestsPerMinutePerToken"}},{"kind":"Field","name":{"kind":"Name","value":"maxCallsPerComparison"}},{"kind":"Field","name":{"kind":"Name","value":"ambiguousOutcomes"}},{"kind":"Field","name":{"kind":"Name","value":"defaultShipPolicy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ShipPolicyFormFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ShipPolicyFormFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ShipPolicy"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"qualityMarginPoints"}},{"kind":"Field","name":{"kind":"Name","value":"alpha"}},{"kind":"Field","name":{"kind":"Name","value":"requireGain"}},{"kind":"Field","name":{"kind":"Name","value":"guardrails"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"metric"}},{"kind":"Field","name":{"kind":"Name","value":"maxIncreasePercent"}},{"kind":"Field","name":{"kind":"Name","value":"maxIncreasePoints"}}]}},{"kind":"Field","name":{"kind":"Name","value":"judge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minLabels"}},{"kind":"Field","name":{"kind":"Name","value":"minKappa"}}]}}]}}]} as unknown as DocumentNode<WorkspaceSettingsFieldsFragment, unknown>;
export const ExportLinkDocument = {"__meta__":{"hash":"sha256:7b3aaf4618b235873eccfb115dd7af224cef3bbe4823b9ca80257ea6af553fc5"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ExportLink"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"target"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ExportTarget"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"format"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ExportFormat"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"baselineRunId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"exportLink"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"target"},"value":{"kind":"Variable","name":{"kind":"Name","value":"target"}}},{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"format"},"value":{"kind":"Variable","name":{"kind":"Name","value":"format"}}},{"kind":"Argument","name":{"kind":"Name","value":"baselineRunId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"baselineRunId"}}},{"kind":"Argument","name":{"kind":"Name","value":"expiresInHours"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}}]}}]}}]} as unknown as DocumentNode<ExportLinkMutation, ExportLinkMutationVariables>;
export const MeDocument = {"__meta__":{"hash":"sha256:63bb59e68081a14df1100b598925dee7f8f5291d8ed545524e221c7d070872b9"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"member"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"workspace"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"allowSelfSignOff"}}]}}]}}]}}]}}]} as unknown as DocumentNode<MeQuery, MeQueryVariables>;
export const AuditPageDocument = {"__meta__":{"hash":"sha256:c0f83a58ca6a98b0e0fee323617bd849c6d2d0729eaa3c690fe2f8daa29c45a0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AuditPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"action"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"actorId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"targetId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"auditEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"action"},"value":{"kind":"Variable","name":{"kind":"Name","value":"action"}}},{"kind":"Argument","name":{"kind":"Name","value":"actorId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"actorId"}}},{"kind":"Argument","name":{"kind":"Name","value":"targetId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"targetId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"action"}},{"kind":"Field","name":{"kind":"Name","value":"actorId"}},{"kind":"Field","name":{"kind":"Name","value":"actorRole"}},{"kind":"Field","name":{"kind":"Name","value":"targetType"}},{"kind":"Field","name":{"kind":"Name","value":"targetId"}},{"kind":"Field","name":{"kind":"Name","value":"details"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]}}]} as unknown as DocumentNode<AuditPageQuery, AuditPageQueryVariables>;
export const AuditMembersDocument = {"__meta__":{"hash":"sha256:7e4ff983b4fea44b4796c47e6d11d2d9bca35ddbce2ccb99788b3b415338fe92"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AuditMembers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"members"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"role"}}]}}]}}]}}]}}]} as unknown as DocumentNode<AuditMembersQuery, AuditMembersQueryVariables>;
export const ResolveFollowUpsDocument = {"__meta__":{"hash":"sha256:a4883068d6f53e9c50efd5f8de406f4921ec89e26ce0ced7cd2f347c3211ff59"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ResolveFollowUps"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"ids"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"note"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resolveFollowUps"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"ids"},"value":{"kind":"Variable","name":{"kind":"Name","value":"ids"}}},{"kind":"Argument","name":{"kind":"Name","value":"note"},"value":{"kind":"Variable","name":{"kind":"Name","value":"note"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"note"}},{"kind":"Field","name":{"kind":"Name","value":"resolvedAt"}},{"kind":"Field","name":{"kind":"Name","value":"resolvedByMemberId"}}]}}]}}]} as unknown as DocumentNode<ResolveFollowUpsMutation, ResolveFollowUpsMutationVariables>;
export const FollowUpsPageDocument = {"__meta__":{"hash":"sha256:d5162b90683334c2136c0c21cbf076b5ebc7cac156d98be6a16cf728d69f8641"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"FollowUpsPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"report"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"followUps"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"datasetItemId"}},{"kind":"Field","name":{"kind":"Name","value":"baselineCohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"note"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<FollowUpsPageQuery, FollowUpsPageQueryVariables>;
export const OpenFollowUpsDocument = {"__meta__":{"hash":"sha256:5e009f778402aa9ddabca8c8193e8ed13d40d55c6983a0ad3d78e31db4d498b1"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OpenFollowUps"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"report"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"followUps"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"state"},"value":{"kind":"EnumValue","value":"OPEN"}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"datasetItemId"}},{"kind":"Field","name":{"kind":"Name","value":"baselineCohortIndex"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<OpenFollowUpsQuery, OpenFollowUpsQueryVariables>;
export const ReportLinkDocument = {"__meta__":{"hash":"sha256:0c2b7645dd07ef02b0d9ddd13c7210ee75251bc11cd6457e0eb8aa8d691259ee"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ReportLink"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reportLink"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}}]}}]}}]} as unknown as DocumentNode<ReportLinkMutation, ReportLinkMutationVariables>;
export const ReportsRegionDocument = {"__meta__":{"hash":"sha256:74f50d4144feb6fda8d0b62a57609300fe4af6ebc3ecb24f449046ee75f550af"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ReportsRegion"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"verdict"}},{"kind":"Field","name":{"kind":"Name","value":"cohorts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"label"}}]}},{"kind":"Field","name":{"kind":"Name","value":"reports"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdByMemberId"}},{"kind":"Field","name":{"kind":"Name","value":"isLatest"}},{"kind":"Field","name":{"kind":"Name","value":"signOff"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"decision"}},{"kind":"Field","name":{"kind":"Name","value":"verdict"}},{"kind":"Field","name":{"kind":"Name","value":"override"}},{"kind":"Field","name":{"kind":"Name","value":"overrideJustification"}},{"kind":"Field","name":{"kind":"Name","value":"signerMemberId"}},{"kind":"Field","name":{"kind":"Name","value":"signerRole"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"members"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ReportsRegionQuery, ReportsRegionQueryVariables>;
export const GenerateReportDocument = {"__meta__":{"hash":"sha256:79b94b3b51b31bdac958ebb46fcf3a9e7f8dad91918c08cf50166b8574c0e64c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"GenerateReport"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"comparisonId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"generateReport"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"comparisonId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"comparisonId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"version"}}]}}]}}]} as unknown as DocumentNode<GenerateReportMutation, GenerateReportMutationVariables>;
export const SignOffDocument = {"__meta__":{"hash":"sha256:ceadc9fcd3047df6f111e3370ce15c17ca07d55c7d164faa66f7d9bdff9de6aa"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SignOff"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"reportId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"decision"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SignOffDecision"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"override"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"justification"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"signOff"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"reportId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"reportId"}}},{"kind":"Argument","name":{"kind":"Name","value":"decision"},"value":{"kind":"Variable","name":{"kind":"Name","value":"decision"}}},{"kind":"Argument","name":{"kind":"Name","value":"override"},"value":{"kind":"Variable","name":{"kind":"Name","value":"override"}}},{"kind":"Argument","name":{"kind":"Name","value":"overrideJustification"},"value":{"kind":"Variable","name":{"kind":"Name","value":"justification"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"decision"}},{"kind":"Field","name":{"kind":"Name","value":"verdict"}},{"kind":"Field","name":{"kind":"Name","value":"comparison"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"verdict"}}]}}]}}]}}]} as unknown as DocumentNode<SignOffMutation, SignOffMutationVariables>;
export const ComparisonDecisionDocument = {"__meta__":{"hash":"sha256:3e92f2f3df6acd46cae9ea8be3752e76b0e801c38909ae10b519924ef380a74b"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComparisonDecision"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"shipPolicy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"qualityMarginPoints"}},{"kind":"Field","name":{"kind":"Name","value":"alpha"}},{"kind":"Field","name":{"kind":"Name","value":"registeredAt"}},{"kind":"Field","name":{"kind":"Name","value":"sentence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"decision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"sentence"}},{"kind":"Field","name":{"kind":"Name","value":"casesNeeded"}},{"kind":"Field","name":{"kind":"Name","value":"usableCases"}},{"kind":"Field","name":{"kind":"Name","value":"level"}},{"kind":"Field","name":{"kind":"Name","value":"criteria"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"baselineCohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"metric"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"estimate"}},{"kind":"Field","name":{"kind":"Name","value":"low"}},{"kind":"Field","name":{"kind":"Name","value":"high"}},{"kind":"Field","name":{"kind":"Name","value":"threshold"}},{"kind":"Field","name":{"kind":"Name","value":"corrected"}},{"kind":"Field","name":{"kind":"Name","value":"sentence"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"scorecard"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verdicts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"baselineCohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"passRateDeltaPoints"}},{"kind":"Field","name":{"kind":"Name","value":"deltaLow"}},{"kind":"Field","name":{"kind":"Name","value":"deltaHigh"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ComparisonDecisionQuery, ComparisonDecisionQueryVariables>;
export const ComparisonCaseCountsDocument = {"__meta__":{"hash":"sha256:576eff8cb2be03857f99a4ae8b1fad6111acfcbabb6ef1ae6108f46ea0425a33"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComparisonCaseCounts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"baseline"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","alias":{"kind":"Name","value":"regressions"},"name":{"kind":"Name","value":"cases"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"EnumValue","value":"REGRESSIONS"}},{"kind":"Argument","name":{"kind":"Name","value":"baselineCohortIndex"},"value":{"kind":"Variable","name":{"kind":"Name","value":"baseline"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"0"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"improvements"},"name":{"kind":"Name","value":"cases"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"EnumValue","value":"IMPROVEMENTS"}},{"kind":"Argument","name":{"kind":"Name","value":"baselineCohortIndex"},"value":{"kind":"Variable","name":{"kind":"Name","value":"baseline"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"0"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"diverged"},"name":{"kind":"Name","value":"cases"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"EnumValue","value":"DIVERGED"}},{"kind":"Argument","name":{"kind":"Name","value":"baselineCohortIndex"},"value":{"kind":"Variable","name":{"kind":"Name","value":"baseline"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"0"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"all"},"name":{"kind":"Name","value":"cases"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"EnumValue","value":"ALL"}},{"kind":"Argument","name":{"kind":"Name","value":"baselineCohortIndex"},"value":{"kind":"Variable","name":{"kind":"Name","value":"baseline"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"0"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}}]}}]}}]} as unknown as DocumentNode<ComparisonCaseCountsQuery, ComparisonCaseCountsQueryVariables>;
export const ComparisonJudgesDocument = {"__meta__":{"hash":"sha256:7fe16c019385b6cba5692ce5ab76972db5c25c8cdafc2590b947b945d516246a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComparisonJudges"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"reviewProgress"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labelled"}},{"kind":"Field","name":{"kind":"Name","value":"graded"}}]}},{"kind":"Field","name":{"kind":"Name","value":"judgeAgreement"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"checkKey"}},{"kind":"Field","name":{"kind":"Name","value":"labels"}},{"kind":"Field","name":{"kind":"Name","value":"agreement"}},{"kind":"Field","name":{"kind":"Name","value":"kappa"}},{"kind":"Field","name":{"kind":"Name","value":"kappaLow"}},{"kind":"Field","name":{"kind":"Name","value":"kappaHigh"}},{"kind":"Field","name":{"kind":"Name","value":"sensitivity"}},{"kind":"Field","name":{"kind":"Name","value":"sensitivityLow"}},{"kind":"Field","name":{"kind":"Name","value":"sensitivityHigh"}},{"kind":"Field","name":{"kind":"Name","value":"specificity"}},{"kind":"Field","name":{"kind":"Name","value":"specificityLow"}},{"kind":"Field","name":{"kind":"Name","value":"specificityHigh"}}]}}]}}]}}]} as unknown as DocumentNode<ComparisonJudgesQuery, ComparisonJudgesQueryVariables>;
export const LabelTrialDocument = {"__meta__":{"hash":"sha256:8f6352cf32f345d6aa511afe40df5d9e7db4c975917cea9bbff74de8f0e5da0d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"LabelTrial"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"trial"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TrialRefInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"passed"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"note"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labelTrial"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"trial"},"value":{"kind":"Variable","name":{"kind":"Name","value":"trial"}}},{"kind":"Argument","name":{"kind":"Name","value":"passed"},"value":{"kind":"Variable","name":{"kind":"Name","value":"passed"}}},{"kind":"Argument","name":{"kind":"Name","value":"note"},"value":{"kind":"Variable","name":{"kind":"Name","value":"note"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trial"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparisonId"}},{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"datasetItemId"}},{"kind":"Field","name":{"kind":"Name","value":"trialIndex"}}]}},{"kind":"Field","name":{"kind":"Name","value":"passed"}},{"kind":"Field","name":{"kind":"Name","value":"note"}},{"kind":"Field","name":{"kind":"Name","value":"judgePassed"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"labeller"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]} as unknown as DocumentNode<LabelTrialMutation, LabelTrialMutationVariables>;
export const ReviewQueueDocument = {"__meta__":{"hash":"sha256:67f0876fe1daaccebf35ebce5093dc989d5be06279f05b84e3f1e4e67eabc96b"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ReviewQueue"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reviewQueue"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"comparisonId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trial"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparisonId"}},{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"datasetItemId"}},{"kind":"Field","name":{"kind":"Name","value":"trialIndex"}}]}},{"kind":"Field","name":{"kind":"Name","value":"input"}},{"kind":"Field","name":{"kind":"Name","value":"expected"}},{"kind":"Field","name":{"kind":"Name","value":"output"}}]}},{"kind":"Field","name":{"kind":"Name","value":"comparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"reviewProgress"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"labelled"}},{"kind":"Field","name":{"kind":"Name","value":"graded"}}]}},{"kind":"Field","name":{"kind":"Name","value":"judgeAgreement"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"checkKey"}}]}}]}}]}}]} as unknown as DocumentNode<ReviewQueueQuery, ReviewQueueQueryVariables>;
export const ComparisonPageDocument = {"__meta__":{"hash":"sha256:29c86378188b4413e76cbb1d4f880418c7a6e3387f8d5c57f5f63bd480c1d896"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComparisonPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"stopReason"}},{"kind":"Field","name":{"kind":"Name","value":"errorCode"}},{"kind":"Field","name":{"kind":"Name","value":"trialsPerCase"}},{"kind":"Field","name":{"kind":"Name","value":"caseCount"}},{"kind":"Field","name":{"kind":"Name","value":"budgetCapCents"}},{"kind":"Field","name":{"kind":"Name","value":"spentCentsSoFar"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"endedAt"}},{"kind":"Field","name":{"kind":"Name","value":"verdictState"}},{"kind":"Field","name":{"kind":"Name","value":"verdictErrorCode"}},{"kind":"Field","name":{"kind":"Name","value":"verdict"}},{"kind":"Field","name":{"kind":"Name","value":"split"}},{"kind":"Field","name":{"kind":"Name","value":"datasetVersion"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"datasetId"}},{"kind":"Field","name":{"kind":"Name","value":"number"}}]}},{"kind":"Field","name":{"kind":"Name","value":"experiment"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"dailyBudgetCents"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cohorts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"isCandidate"}},{"kind":"Field","name":{"kind":"Name","value":"passRate"}}]}},{"kind":"Field","name":{"kind":"Name","value":"progress"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ProgressFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"reports"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"version"}},{"kind":"Field","name":{"kind":"Name","value":"signOff"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"decision"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"cappedConnections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"monthlyCapCents"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProgressFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ComparisonProgress"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"stopReason"}},{"kind":"Field","name":{"kind":"Name","value":"doneCalls"}},{"kind":"Field","name":{"kind":"Name","value":"totalCalls"}},{"kind":"Field","name":{"kind":"Name","value":"failedCalls"}},{"kind":"Field","name":{"kind":"Name","value":"percent"}},{"kind":"Field","name":{"kind":"Name","value":"etaSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"spentCentsSoFar"}},{"kind":"Field","name":{"kind":"Name","value":"cohorts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}}]}}]} as unknown as DocumentNode<ComparisonPageQuery, ComparisonPageQueryVariables>;
export const ComparisonScorecardDocument = {"__meta__":{"hash":"sha256:338d56247e8d4c8ece46d5f832e605dc69c8240bf17457996509e2ed992f75a5"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComparisonScorecard"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scorecard"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"usableCases"}},{"kind":"Field","name":{"kind":"Name","value":"casesNotRun"}},{"kind":"Field","name":{"kind":"Name","value":"metrics"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"direction"}},{"kind":"Field","name":{"kind":"Name","value":"values"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"winners"}}]}},{"kind":"Field","name":{"kind":"Name","value":"overallWinner"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}},{"kind":"Field","name":{"kind":"Name","value":"staleness"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"days"}},{"kind":"Field","name":{"kind":"Name","value":"note"}}]}},{"kind":"Field","name":{"kind":"Name","value":"confidence"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"passRate"}},{"kind":"Field","name":{"kind":"Name","value":"low"}},{"kind":"Field","name":{"kind":"Name","value":"high"}},{"kind":"Field","name":{"kind":"Name","value":"n"}},{"kind":"Field","name":{"kind":"Name","value":"adequacy"}},{"kind":"Field","name":{"kind":"Name","value":"mde"}}]}},{"kind":"Field","name":{"kind":"Name","value":"trials"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"k"}},{"kind":"Field","name":{"kind":"Name","value":"passHatK"}},{"kind":"Field","name":{"kind":"Name","value":"passAtK"}},{"kind":"Field","name":{"kind":"Name","value":"flips"}},{"kind":"Field","name":{"kind":"Name","value":"failedOrMissingTrials"}}]}},{"kind":"Field","name":{"kind":"Name","value":"failureAnalysis"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"improved"}},{"kind":"Field","name":{"kind":"Name","value":"regressed"}},{"kind":"Field","name":{"kind":"Name","value":"bothWrong"}},{"kind":"Field","name":{"kind":"Name","value":"agree"}}]}},{"kind":"Field","name":{"kind":"Name","value":"verdicts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerdictChipFields"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerdictChipFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaselineVerdict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"baselineCohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"summary"}}]}}]} as unknown as DocumentNode<ComparisonScorecardQuery, ComparisonScorecardQueryVariables>;
export const ComparisonProgressDocument = {"__meta__":{"hash":"sha256:c41e137e542137fc6c34a205f5c0f30c4e2a82f177c2efb1818c30e9688fc6b7"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ComparisonProgress"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparisonProgress"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"afterSeq"},"value":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ProgressFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProgressFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ComparisonProgress"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"stopReason"}},{"kind":"Field","name":{"kind":"Name","value":"doneCalls"}},{"kind":"Field","name":{"kind":"Name","value":"totalCalls"}},{"kind":"Field","name":{"kind":"Name","value":"failedCalls"}},{"kind":"Field","name":{"kind":"Name","value":"percent"}},{"kind":"Field","name":{"kind":"Name","value":"etaSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"spentCentsSoFar"}},{"kind":"Field","name":{"kind":"Name","value":"cohorts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}}]}}]} as unknown as DocumentNode<ComparisonProgressSubscription, ComparisonProgressSubscriptionVariables>;
export const ComparisonCasesDocument = {"__meta__":{"hash":"sha256:8d6000106346093f6440966267e2ef641d8b01d66073cfd990066c73ff042190"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComparisonCases"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CaseFilter"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"baseline"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"cases"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"baselineCohortIndex"},"value":{"kind":"Variable","name":{"kind":"Name","value":"baseline"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ordinal"}},{"kind":"Field","name":{"kind":"Name","value":"datasetItemId"}},{"kind":"Field","name":{"kind":"Name","value":"classification"}},{"kind":"Field","name":{"kind":"Name","value":"cohorts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"passed"}},{"kind":"Field","name":{"kind":"Name","value":"passFraction"}},{"kind":"Field","name":{"kind":"Name","value":"score"}},{"kind":"Field","name":{"kind":"Name","value":"trials"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trialIndex"}},{"kind":"Field","name":{"kind":"Name","value":"passed"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","name":{"kind":"Name","value":"errorCode"}}]}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<ComparisonCasesQuery, ComparisonCasesQueryVariables>;
export const ComparisonDatasetNameDocument = {"__meta__":{"hash":"sha256:7099f498d0c4fc4685df09287f4095878767552431cdd3cf2e68fa89478cba44"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComparisonDatasetName"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<ComparisonDatasetNameQuery, ComparisonDatasetNameQueryVariables>;
export const ComparisonCaseDebugDocument = {"__meta__":{"hash":"sha256:b7a6c0035e3fe4d543cecd40433587ed54ca9a923cdb808462ca17df40e9f514"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComparisonCaseDebug"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CaseFilter"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"baseline"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"cases"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"baselineCohortIndex"},"value":{"kind":"Variable","name":{"kind":"Name","value":"baseline"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1"}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"ordinal"}},{"kind":"Field","name":{"kind":"Name","value":"datasetItemId"}},{"kind":"Field","name":{"kind":"Name","value":"input"}},{"kind":"Field","name":{"kind":"Name","value":"expected"}},{"kind":"Field","name":{"kind":"Name","value":"cohorts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"passed"}},{"kind":"Field","name":{"kind":"Name","value":"passFraction"}},{"kind":"Field","name":{"kind":"Name","value":"trials"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trialIndex"}},{"kind":"Field","name":{"kind":"Name","value":"passed"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","name":{"kind":"Name","value":"checks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"passed"}},{"kind":"Field","name":{"kind":"Name","value":"score"}}]}},{"kind":"Field","name":{"kind":"Name","value":"latencyMs"}},{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"costCents"}},{"kind":"Field","name":{"kind":"Name","value":"errorCode"}},{"kind":"Field","name":{"kind":"Name","value":"trajectory"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TrajectorySideStep"}}]}},{"kind":"Field","name":{"kind":"Name","value":"labels"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"passed"}},{"kind":"Field","name":{"kind":"Name","value":"note"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"labeller"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TrajectorySideStep"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrajectoryStep"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"arguments"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"outputMessages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"toolCalls"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"arguments"}}]}}]}}]}}]} as unknown as DocumentNode<ComparisonCaseDebugQuery, ComparisonCaseDebugQueryVariables>;
export const StartComparisonDocument = {"__meta__":{"hash":"sha256:97489d62a2579624ce86d24efe9970389f6c3917602eb6c73469a870b2e0a5ce"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"StartComparison"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"startComparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"background"},"value":{"kind":"BooleanValue","value":true}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<StartComparisonMutation, StartComparisonMutationVariables>;
export const CancelComparisonDocument = {"__meta__":{"hash":"sha256:762f6cc808e1b6f3019dea1fd9ad545f59730509a142ef009fa5235f795c841a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CancelComparison"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cancelComparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<CancelComparisonMutation, CancelComparisonMutationVariables>;
export const RerunComparisonDocument = {"__meta__":{"hash":"sha256:c95cc1eeaeb62327ab591acccd9a76428d272056aa97eb81dd06f28b941f09ee"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RerunComparison"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rerunComparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<RerunComparisonMutation, RerunComparisonMutationVariables>;
export const FinalizeComparisonDocument = {"__meta__":{"hash":"sha256:6248cbeac8b348defadd5b82cf16bf74f182d5f7e7a5f5d5e1a699db80a7764f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"FinalizeComparison"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"finalizeComparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"verdictState"}},{"kind":"Field","name":{"kind":"Name","value":"verdictErrorCode"}}]}}]}}]} as unknown as DocumentNode<FinalizeComparisonMutation, FinalizeComparisonMutationVariables>;
export const RerunPreviewDocument = {"__meta__":{"hash":"sha256:d91da20bda5b139327979f9bb5cb85cb36cf29f218a0050eab58623e5916a1d9"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RerunPreview"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rerunPreview"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCalls"}},{"kind":"Field","name":{"kind":"Name","value":"costBoundCents"}},{"kind":"Field","name":{"kind":"Name","value":"summary"}},{"kind":"Field","name":{"kind":"Name","value":"canStart"}},{"kind":"Field","name":{"kind":"Name","value":"blockers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<RerunPreviewQuery, RerunPreviewQueryVariables>;
export const ComparisonsListDocument = {"__meta__":{"hash":"sha256:6fa3a92731de409a19d93164793a3340e47d66f7b2a6a402ce009217e8d87dd0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComparisonsList"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"status"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ComparisonStatus"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparisons"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"status"},"value":{"kind":"Variable","name":{"kind":"Name","value":"status"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ComparisonRowFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerdictChipFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaselineVerdict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"baselineCohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"summary"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ComparisonRowFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Comparison"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"stopReason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"spentCentsSoFar"}},{"kind":"Field","name":{"kind":"Name","value":"verdictState"}},{"kind":"Field","name":{"kind":"Name","value":"decision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"outcome"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cohorts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"isCandidate"}},{"kind":"Field","name":{"kind":"Name","value":"passRate"}}]}},{"kind":"Field","name":{"kind":"Name","value":"scorecard"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verdicts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerdictChipFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"progress"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"doneCalls"}},{"kind":"Field","name":{"kind":"Name","value":"totalCalls"}}]}}]}}]} as unknown as DocumentNode<ComparisonsListQuery, ComparisonsListQueryVariables>;
export const ComparisonRowDocument = {"__meta__":{"hash":"sha256:35b53b49c7d34ec8f106cf4c2ad2bf1ea999ee165cfaa96d64251f0fab4cf708"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComparisonRow"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ComparisonRowFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"VerdictChipFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BaselineVerdict"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"baselineCohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"summary"}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ComparisonRowFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Comparison"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"stopReason"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"spentCentsSoFar"}},{"kind":"Field","name":{"kind":"Name","value":"verdictState"}},{"kind":"Field","name":{"kind":"Name","value":"decision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"outcome"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cohorts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"isCandidate"}},{"kind":"Field","name":{"kind":"Name","value":"passRate"}}]}},{"kind":"Field","name":{"kind":"Name","value":"scorecard"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"verdicts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"VerdictChipFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"progress"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"doneCalls"}},{"kind":"Field","name":{"kind":"Name","value":"totalCalls"}}]}}]}}]} as unknown as DocumentNode<ComparisonRowQuery, ComparisonRowQueryVariables>;
export const RowProgressDocument = {"__meta__":{"hash":"sha256:36123c7a6eb102239d5b0a75b3442ccea3c6b18d1be78f9b65459507f89caf72"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"RowProgress"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparisonProgress"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"afterSeq"},"value":{"kind":"Variable","name":{"kind":"Name","value":"afterSeq"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"doneCalls"}},{"kind":"Field","name":{"kind":"Name","value":"totalCalls"}},{"kind":"Field","name":{"kind":"Name","value":"spentCentsSoFar"}}]}}]}}]} as unknown as DocumentNode<RowProgressSubscription, RowProgressSubscriptionVariables>;
export const ComparisonsSignOffsDocument = {"__meta__":{"hash":"sha256:2032adeea039b8d598eb1ddcf16f1d700453ae96d7001c883de59e6f4011772c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComparisonsSignOffs"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"status"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ComparisonStatus"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparisons"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"status"},"value":{"kind":"Variable","name":{"kind":"Name","value":"status"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"reports"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"signOff"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"decision"}},{"kind":"Field","name":{"kind":"Name","value":"signerMemberId"}}]}}]}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"members"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ComparisonsSignOffsQuery, ComparisonsSignOffsQueryVariables>;
export const SetupChoicesDocument = {"__meta__":{"hash":"sha256:0e6746ee61e2c528f4babeb8795d42b987e2069685edb38a1e5ebd0842d4ce7e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SetupChoices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"workspace"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"defaultShipPolicy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ShipPolicyFormFields"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"releases"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"datasets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"latestVersion"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"caseCount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"versions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"caseCount"}},{"kind":"Field","name":{"kind":"Name","value":"caseCounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dev"}},{"kind":"Field","name":{"kind":"Name","value":"holdout"}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ShipPolicyFormFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ShipPolicy"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"qualityMarginPoints"}},{"kind":"Field","name":{"kind":"Name","value":"alpha"}},{"kind":"Field","name":{"kind":"Name","value":"requireGain"}},{"kind":"Field","name":{"kind":"Name","value":"guardrails"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"metric"}},{"kind":"Field","name":{"kind":"Name","value":"maxIncreasePercent"}},{"kind":"Field","name":{"kind":"Name","value":"maxIncreasePoints"}}]}},{"kind":"Field","name":{"kind":"Name","value":"judge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minLabels"}},{"kind":"Field","name":{"kind":"Name","value":"minKappa"}}]}}]}}]} as unknown as DocumentNode<SetupChoicesQuery, SetupChoicesQueryVariables>;
export const AssetVersionsOfKindDocument = {"__meta__":{"hash":"sha256:fdbe60a4d3bdb42679eb775a735d102126b9aa70b5171c5dbafd540f2ba4479c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AssetVersionsOfKind"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AssetKind"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"assets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"builtIn"}},{"kind":"Field","name":{"kind":"Name","value":"versions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<AssetVersionsOfKindQuery, AssetVersionsOfKindQueryVariables>;
export const ComparisonPreviewDocument = {"__meta__":{"hash":"sha256:0b26141c3cd4ade2be768732ee97c207a1967470fc92dbe8698def76b2004402"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ComparisonPreview"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateComparisonInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"comparisonPreview"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"datasetVersionNumber"}},{"kind":"Field","name":{"kind":"Name","value":"split"}},{"kind":"Field","name":{"kind":"Name","value":"splitCaseCount"}},{"kind":"Field","name":{"kind":"Name","value":"caseCount"}},{"kind":"Field","name":{"kind":"Name","value":"leftOutCount"}},{"kind":"Field","name":{"kind":"Name","value":"trialsPerCase"}},{"kind":"Field","name":{"kind":"Name","value":"totalCalls"}},{"kind":"Field","name":{"kind":"Name","value":"costBoundCents"}},{"kind":"Field","name":{"kind":"Name","value":"summary"}},{"kind":"Field","name":{"kind":"Name","value":"canStart"}},{"kind":"Field","name":{"kind":"Name","value":"connections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"connectionId"}},{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"Field","name":{"kind":"Name","value":"variables"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"variable"}},{"kind":"Field","name":{"kind":"Name","value":"text"}}]}},{"kind":"Field","name":{"kind":"Name","value":"warnings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}},{"kind":"Field","name":{"kind":"Name","value":"blockers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}},{"kind":"Field","name":{"kind":"Name","value":"shipPolicy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sentence"}}]}}]}}]}}]} as unknown as DocumentNode<ComparisonPreviewQuery, ComparisonPreviewQueryVariables>;
export const CreateComparisonDocument = {"__meta__":{"hash":"sha256:1adacfdd89a9c2702ca2a0ada8429aa8a8e311acb9b61c41fb9b23b81f634034"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateComparison"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateComparisonInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createComparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<CreateComparisonMutation, CreateComparisonMutationVariables>;
export const DatasetCasesPageDocument = {"__meta__":{"hash":"sha256:3e55b2f79e970ce518e8bbc5f26f075857942426dc8a0c91e113dc52eec632f5"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DatasetCasesPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"datasetVersion"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"cases"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"datasetItemId"}},{"kind":"Field","name":{"kind":"Name","value":"input"}},{"kind":"Field","name":{"kind":"Name","value":"expected"}},{"kind":"Field","name":{"kind":"Name","value":"split"}},{"kind":"Field","name":{"kind":"Name","value":"tags"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<DatasetCasesPageQuery, DatasetCasesPageQueryVariables>;
export const DatasetPageDocument = {"__meta__":{"hash":"sha256:7c18a899ab4642c328cc8c60555ead364950aa1fabeb75e3925a70d02d134ca3"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DatasetPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"builtIn"}},{"kind":"Field","name":{"kind":"Name","value":"latestVersion"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"versions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"caseCount"}},{"kind":"Field","name":{"kind":"Name","value":"caseCounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dev"}},{"kind":"Field","name":{"kind":"Name","value":"holdout"}}]}},{"kind":"Field","name":{"kind":"Name","value":"holdoutLooks"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"sealedAt"}},{"kind":"Field","name":{"kind":"Name","value":"contentHash"}}]}}]}}]}}]} as unknown as DocumentNode<DatasetPageQuery, DatasetPageQueryVariables>;
export const DatasetsPageDocument = {"__meta__":{"hash":"sha256:8a6d8471df4f6470d90f0d811ee02a0dd47f938ad39da72816d4df1c83d15fe3"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"DatasetsPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"datasets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PageInfoFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"builtIn"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"latestVersion"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"caseCount"}},{"kind":"Field","name":{"kind":"Name","value":"sealedAt"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageInfoFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]} as unknown as DocumentNode<DatasetsPageQuery, DatasetsPageQueryVariables>;
export const CreateDatasetDocument = {"__meta__":{"hash":"sha256:6b2694a0ed2767f4f48537317542498fa26374c427bcfc765edbd8a4d88e2e9f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateDataset"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateDatasetInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createDataset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<CreateDatasetMutation, CreateDatasetMutationVariables>;
export const OpenDatasetVersionDocument = {"__meta__":{"hash":"sha256:775fee69447e273ff31925507990297df797a5432c0eb69c746c86a0bae658e2"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"OpenDatasetVersion"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"datasetId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"openDatasetVersion"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"datasetId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"datasetId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}}]}}]}}]} as unknown as DocumentNode<OpenDatasetVersionMutation, OpenDatasetVersionMutationVariables>;
export const AppendDatasetCasesDocument = {"__meta__":{"hash":"sha256:662791d76cfa188b7fb40b1617663b64193f7682249197219cc3a72a31545e0a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AppendDatasetCases"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"versionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"cases"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"JSON"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"position"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"appendDatasetCases"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"versionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"versionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"cases"},"value":{"kind":"Variable","name":{"kind":"Name","value":"cases"}}},{"kind":"Argument","name":{"kind":"Name","value":"position"},"value":{"kind":"Variable","name":{"kind":"Name","value":"position"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"caseCount"}}]}}]}}]} as unknown as DocumentNode<AppendDatasetCasesMutation, AppendDatasetCasesMutationVariables>;
export const SealDatasetVersionDocument = {"__meta__":{"hash":"sha256:1523ae3090fa56ce77bbf9b61bbf927347ebb0d74fe4b690d5b541ad27f3a853"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SealDatasetVersion"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"versionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sealDatasetVersion"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"versionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"versionId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"caseCount"}},{"kind":"Field","name":{"kind":"Name","value":"datasetId"}}]}}]}}]} as unknown as DocumentNode<SealDatasetVersionMutation, SealDatasetVersionMutationVariables>;
export const DiscardDatasetVersionDocument = {"__meta__":{"hash":"sha256:bcaaebf981eff5cc517d772770faf6e7377c9d8263d9fa2ae2ed981440298845"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DiscardDatasetVersion"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"versionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"discardDatasetVersion"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"versionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"versionId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}}]}}]} as unknown as DocumentNode<DiscardDatasetVersionMutation, DiscardDatasetVersionMutationVariables>;
export const DiscardOpenVersionDocument = {"__meta__":{"hash":"sha256:12ca95b327306ce1a2ec7ca525a27161285dc12dfa43b57290554d0e284eb66a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"DiscardOpenVersion"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"versionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"discardDatasetVersion"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"versionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"versionId"}}},{"kind":"Argument","name":{"kind":"Name","value":"keepDataset"},"value":{"kind":"BooleanValue","value":true}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}}]}}]} as unknown as DocumentNode<DiscardOpenVersionMutation, DiscardOpenVersionMutationVariables>;
export const ExperimentPageDocument = {"__meta__":{"hash":"sha256:6bbb76315bffee707370947b4d34e3ae816ea349d029a124c51ed8b8279d28b0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ExperimentPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"experiment"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"experimentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"cohortLabel"}},{"kind":"Field","name":{"kind":"Name","value":"releaseName"}},{"kind":"Field","name":{"kind":"Name","value":"comparisonId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"passRate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"low"}},{"kind":"Field","name":{"kind":"Name","value":"high"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<ExperimentPageQuery, ExperimentPageQueryVariables>;
export const ExperimentsPageDocument = {"__meta__":{"hash":"sha256:efa81da677c213e18edbacef1cb082359f22ec66d279a87e0e2f47f47f218111"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ExperimentsPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"experiments"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PageInfoFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"dailyBudgetCents"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageInfoFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]} as unknown as DocumentNode<ExperimentsPageQuery, ExperimentsPageQueryVariables>;
export const RunDiffCasesPageDocument = {"__meta__":{"hash":"sha256:18396ae70509b21e2852612178337c369ec0c8ed4d2f46d9695563372b88ebbe"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RunDiffCasesPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"candidate"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"baseline"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DiffCaseFilter"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runDiff"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"candidateRunId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"candidate"}}},{"kind":"Argument","name":{"kind":"Name","value":"baselineRunId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"baseline"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"candidateRunId"}},{"kind":"Field","name":{"kind":"Name","value":"baselineRunId"}},{"kind":"Field","name":{"kind":"Name","value":"cases"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"status"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"datasetItemId"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"baselinePosition"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"passFlip"}},{"kind":"Field","name":{"kind":"Name","value":"candidatePassFraction"}},{"kind":"Field","name":{"kind":"Name","value":"baselinePassFraction"}},{"kind":"Field","name":{"kind":"Name","value":"input"}},{"kind":"Field","name":{"kind":"Name","value":"evaluators"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"baselineMean"}},{"kind":"Field","name":{"kind":"Name","value":"candidateMean"}},{"kind":"Field","name":{"kind":"Name","value":"delta"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<RunDiffCasesPageQuery, RunDiffCasesPageQueryVariables>;
export const RunDiffPageDocument = {"__meta__":{"hash":"sha256:5db80f5b304f3a0b8faab114f7f64ae479b1170e287b2376c0940faf58d6b08e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RunDiffPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"candidate"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"baseline"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"candidateRun"},"name":{"kind":"Name","value":"run"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"candidate"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"cohortLabel"}},{"kind":"Field","name":{"kind":"Name","value":"releaseName"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"baselineRun"},"name":{"kind":"Name","value":"run"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"baseline"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"cohortLabel"}},{"kind":"Field","name":{"kind":"Name","value":"releaseName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"runDiff"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"candidateRunId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"candidate"}}},{"kind":"Argument","name":{"kind":"Name","value":"baselineRunId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"baseline"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"candidateRunId"}},{"kind":"Field","name":{"kind":"Name","value":"baselineRunId"}},{"kind":"Field","name":{"kind":"Name","value":"summary"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"baselinePassRate"}},{"kind":"Field","name":{"kind":"Name","value":"candidatePassRate"}},{"kind":"Field","name":{"kind":"Name","value":"passRateDelta"}},{"kind":"Field","name":{"kind":"Name","value":"deltaLow"}},{"kind":"Field","name":{"kind":"Name","value":"deltaHigh"}},{"kind":"Field","name":{"kind":"Name","value":"method"}},{"kind":"Field","name":{"kind":"Name","value":"pValue"}},{"kind":"Field","name":{"kind":"Name","value":"significant"}},{"kind":"Field","name":{"kind":"Name","value":"significanceReason"}},{"kind":"Field","name":{"kind":"Name","value":"improvedCount"}},{"kind":"Field","name":{"kind":"Name","value":"regressedCount"}},{"kind":"Field","name":{"kind":"Name","value":"unchangedCount"}},{"kind":"Field","name":{"kind":"Name","value":"addedCount"}},{"kind":"Field","name":{"kind":"Name","value":"removedCount"}},{"kind":"Field","name":{"kind":"Name","value":"passFlipsToFail"}},{"kind":"Field","name":{"kind":"Name","value":"passFlipsToPass"}},{"kind":"Field","name":{"kind":"Name","value":"pairedCount"}},{"kind":"Field","name":{"kind":"Name","value":"gradedPairCount"}},{"kind":"Field","name":{"kind":"Name","value":"epsilon"}},{"kind":"Field","name":{"kind":"Name","value":"pairing"}},{"kind":"Field","name":{"kind":"Name","value":"evaluators"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"pairedCount"}},{"kind":"Field","name":{"kind":"Name","value":"baselineMean"}},{"kind":"Field","name":{"kind":"Name","value":"candidateMean"}},{"kind":"Field","name":{"kind":"Name","value":"delta"}},{"kind":"Field","name":{"kind":"Name","value":"low"}},{"kind":"Field","name":{"kind":"Name","value":"high"}},{"kind":"Field","name":{"kind":"Name","value":"pValue"}},{"kind":"Field","name":{"kind":"Name","value":"adjustedPValue"}},{"kind":"Field","name":{"kind":"Name","value":"significant"}}]}}]}}]}}]}}]} as unknown as DocumentNode<RunDiffPageQuery, RunDiffPageQueryVariables>;
export const RunDiffTrajectoriesDocument = {"__meta__":{"hash":"sha256:eb3e1e016fabdac5bf42c5d9920f8f81b9a42d0b80dc18baea299a95d01df75a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RunDiffTrajectories"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"candidate"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"baseline"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"position"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"baselinePosition"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","alias":{"kind":"Name","value":"candidateRun"},"name":{"kind":"Name","value":"run"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"candidate"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"item"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"position"},"value":{"kind":"Variable","name":{"kind":"Name","value":"position"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RunDiffItemTrajectories"}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"baselineRun"},"name":{"kind":"Name","value":"run"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"baseline"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"item"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"position"},"value":{"kind":"Variable","name":{"kind":"Name","value":"baselinePosition"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"RunDiffItemTrajectories"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"TrajectorySideStep"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TrajectoryStep"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"arguments"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"outputMessages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"toolCalls"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"arguments"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"RunDiffItemTrajectories"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RunItem"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"trials"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"traceId"}},{"kind":"Field","name":{"kind":"Name","value":"trajectory"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"TrajectorySideStep"}}]}}]}}]}}]} as unknown as DocumentNode<RunDiffTrajectoriesQuery, RunDiffTrajectoriesQueryVariables>;
export const RunsPageDocument = {"__meta__":{"hash":"sha256:99c7dd5e8ebdf5f5a046866a29d1495479f863d39b5454ac7e961faab0e440ae"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RunsPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"experimentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"runs"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"experimentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"experimentId"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"itemCount"}},{"kind":"Field","name":{"kind":"Name","value":"cohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"cohortLabel"}},{"kind":"Field","name":{"kind":"Name","value":"releaseName"}},{"kind":"Field","name":{"kind":"Name","value":"comparisonId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"passRate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"low"}},{"kind":"Field","name":{"kind":"Name","value":"high"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<RunsPageQuery, RunsPageQueryVariables>;
export const LiveComparisonPageDocument = {"__meta__":{"hash":"sha256:73925292b3d476cce92242b77df9fc9d96654a11bc93f2671e6f098019a8913e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LiveComparisonPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"liveComparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"service"}},{"kind":"Field","name":{"kind":"Name","value":"candidateRelease"}},{"kind":"Field","name":{"kind":"Name","value":"baselineReleases"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"decidedAt"}},{"kind":"Field","name":{"kind":"Name","value":"tracesNeeded"}},{"kind":"Field","name":{"kind":"Name","value":"marginPoints"}},{"kind":"Field","name":{"kind":"Name","value":"shipPolicy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sentence"}}]}},{"kind":"Field","name":{"kind":"Name","value":"arms"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"release"}},{"kind":"Field","name":{"kind":"Name","value":"isCandidate"}},{"kind":"Field","name":{"kind":"Name","value":"traces"}},{"kind":"Field","name":{"kind":"Name","value":"graded"}},{"kind":"Field","name":{"kind":"Name","value":"passRate"}},{"kind":"Field","name":{"kind":"Name","value":"costPerTrace"}},{"kind":"Field","name":{"kind":"Name","value":"latencyP95Ms"}},{"kind":"Field","name":{"kind":"Name","value":"errorRate"}}]}},{"kind":"Field","name":{"kind":"Name","value":"decision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"sentence"}},{"kind":"Field","name":{"kind":"Name","value":"level"}},{"kind":"Field","name":{"kind":"Name","value":"criteria"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"baselineCohortIndex"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"metric"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"estimate"}},{"kind":"Field","name":{"kind":"Name","value":"low"}},{"kind":"Field","name":{"kind":"Name","value":"high"}},{"kind":"Field","name":{"kind":"Name","value":"threshold"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"sequence"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"traces"}},{"kind":"Field","name":{"kind":"Name","value":"estimate"}},{"kind":"Field","name":{"kind":"Name","value":"low"}},{"kind":"Field","name":{"kind":"Name","value":"high"}}]}}]}}]}}]} as unknown as DocumentNode<LiveComparisonPageQuery, LiveComparisonPageQueryVariables>;
export const LiveComparisonsPageDocument = {"__meta__":{"hash":"sha256:f042a91db8e2ca7cc5dc2a1908551a6239d034d61a852b8a89ac4dbddee2c586"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LiveComparisonsPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"liveComparisons"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"label"}},{"kind":"Field","name":{"kind":"Name","value":"service"}},{"kind":"Field","name":{"kind":"Name","value":"candidateRelease"}},{"kind":"Field","name":{"kind":"Name","value":"baselineReleases"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"decision"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"outcome"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<LiveComparisonsPageQuery, LiveComparisonsPageQueryVariables>;
export const NewLiveChoicesDocument = {"__meta__":{"hash":"sha256:8306eb7a63380d299470df821a1e560adcbb7cc5a060b6728483f7606c785368"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"NewLiveChoices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"workspace"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"defaultShipPolicy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ShipPolicyFormFields"}}]}}]}}]}},{"kind":"Field","alias":{"kind":"Name","value":"services"},"name":{"kind":"Name","value":"traceStats"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"groupBy"},"value":{"kind":"EnumValue","value":"SERVICE"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"traces"}}]}},{"kind":"Field","alias":{"kind":"Name","value":"releases"},"name":{"kind":"Name","value":"traceStats"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"groupBy"},"value":{"kind":"EnumValue","value":"RELEASE"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"traces"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ShipPolicyFormFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ShipPolicy"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"qualityMarginPoints"}},{"kind":"Field","name":{"kind":"Name","value":"alpha"}},{"kind":"Field","name":{"kind":"Name","value":"requireGain"}},{"kind":"Field","name":{"kind":"Name","value":"guardrails"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"metric"}},{"kind":"Field","name":{"kind":"Name","value":"maxIncreasePercent"}},{"kind":"Field","name":{"kind":"Name","value":"maxIncreasePoints"}}]}},{"kind":"Field","name":{"kind":"Name","value":"judge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minLabels"}},{"kind":"Field","name":{"kind":"Name","value":"minKappa"}}]}}]}}]} as unknown as DocumentNode<NewLiveChoicesQuery, NewLiveChoicesQueryVariables>;
export const CreateLiveComparisonDocument = {"__meta__":{"hash":"sha256:193e85e6de96d4b0387a95f085d8a2d76ebf0c8cdd87902cc6bd4806c60e4e53"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateLiveComparison"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateLiveComparisonInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createLiveComparison"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<CreateLiveComparisonMutation, CreateLiveComparisonMutationVariables>;
export const PlaygroundChoicesDocument = {"__meta__":{"hash":"sha256:ddd70b2eba6e51f12e7a13c271aa7c7308d2334553228b5227ee14da219b31e4"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PlaygroundChoices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"assets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"EnumValue","value":"PROMPT_TEMPLATE"}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"builtIn"}},{"kind":"Field","name":{"kind":"Name","value":"gateSettings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"datasetId"}},{"kind":"Field","name":{"kind":"Name","value":"split"}},{"kind":"Field","name":{"kind":"Name","value":"trialsPerCase"}},{"kind":"Field","name":{"kind":"Name","value":"checks"}},{"kind":"Field","name":{"kind":"Name","value":"shipPolicy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ShipPolicyFormFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"versions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"variables"}}]}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"modelConnections"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"datasets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ShipPolicyFormFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ShipPolicy"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"qualityMarginPoints"}},{"kind":"Field","name":{"kind":"Name","value":"alpha"}},{"kind":"Field","name":{"kind":"Name","value":"requireGain"}},{"kind":"Field","name":{"kind":"Name","value":"guardrails"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"metric"}},{"kind":"Field","name":{"kind":"Name","value":"maxIncreasePercent"}},{"kind":"Field","name":{"kind":"Name","value":"maxIncreasePoints"}}]}},{"kind":"Field","name":{"kind":"Name","value":"judge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minLabels"}},{"kind":"Field","name":{"kind":"Name","value":"minKappa"}}]}}]}}]} as unknown as DocumentNode<PlaygroundChoicesQuery, PlaygroundChoicesQueryVariables>;
export const PlaygroundRunDocument = {"__meta__":{"hash":"sha256:e3ed3b7496410c40fe7944265879a42ab8100b5ac8fc9214ee1532e941ca8110"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PlaygroundRun"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PlaygroundRunInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"playgroundRun"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"cells"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PlaygroundCellFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PlaygroundCellFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PlaygroundCell"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"paneIndex"}},{"kind":"Field","name":{"kind":"Name","value":"caseId"}},{"kind":"Field","name":{"kind":"Name","value":"caseInput"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"costCents"}},{"kind":"Field","name":{"kind":"Name","value":"latencyMs"}},{"kind":"Field","name":{"kind":"Name","value":"passed"}},{"kind":"Field","name":{"kind":"Name","value":"checks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"passed"}}]}}]}}]} as unknown as DocumentNode<PlaygroundRunMutation, PlaygroundRunMutationVariables>;
export const StopPlaygroundRunDocument = {"__meta__":{"hash":"sha256:052544e6077c3f1a44f6bfcea3285f53e824404a9c8fb0967b6e1806b508be2b"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"StopPlaygroundRun"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"stopPlaygroundRun"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"cells"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PlaygroundCellFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PlaygroundCellFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PlaygroundCell"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"paneIndex"}},{"kind":"Field","name":{"kind":"Name","value":"caseId"}},{"kind":"Field","name":{"kind":"Name","value":"caseInput"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"costCents"}},{"kind":"Field","name":{"kind":"Name","value":"latencyMs"}},{"kind":"Field","name":{"kind":"Name","value":"passed"}},{"kind":"Field","name":{"kind":"Name","value":"checks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"passed"}}]}}]}}]} as unknown as DocumentNode<StopPlaygroundRunMutation, StopPlaygroundRunMutationVariables>;
export const PlaygroundRunProgressDocument = {"__meta__":{"hash":"sha256:9f2e0cd7f9160d8da32a35581a53403eb30cbdd029aa0118a24c7b07c8709c53"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"PlaygroundRunProgress"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"playgroundRunProgress"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"cells"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PlaygroundCellFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PlaygroundCellFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PlaygroundCell"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"paneIndex"}},{"kind":"Field","name":{"kind":"Name","value":"caseId"}},{"kind":"Field","name":{"kind":"Name","value":"caseInput"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"costCents"}},{"kind":"Field","name":{"kind":"Name","value":"latencyMs"}},{"kind":"Field","name":{"kind":"Name","value":"passed"}},{"kind":"Field","name":{"kind":"Name","value":"checks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"passed"}}]}}]}}]} as unknown as DocumentNode<PlaygroundRunProgressSubscription, PlaygroundRunProgressSubscriptionVariables>;
export const PlaygroundCasesDocument = {"__meta__":{"hash":"sha256:d74003258c899d8fa9f4cc5af01a0327063603050d31d107a475a40783a61bdb"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PlaygroundCases"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"dataset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"latestVersion"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"cases"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"split"},"value":{"kind":"EnumValue","value":"DEV"}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"datasetItemId"}},{"kind":"Field","name":{"kind":"Name","value":"input"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<PlaygroundCasesQuery, PlaygroundCasesQueryVariables>;
export const AssetsOfKindDocument = {"__meta__":{"hash":"sha256:57577d97a6bab43f239123b15e10165c69d448fcc5a59b8fd75264eb4a29f68f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AssetsOfKind"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AssetKind"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"assets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"builtIn"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"gateSettings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"datasetId"}},{"kind":"Field","name":{"kind":"Name","value":"split"}},{"kind":"Field","name":{"kind":"Name","value":"trialsPerCase"}},{"kind":"Field","name":{"kind":"Name","value":"checks"}},{"kind":"Field","name":{"kind":"Name","value":"shipPolicy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ShipPolicyFormFields"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"versions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"variables"}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ShipPolicyFormFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ShipPolicy"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"qualityMarginPoints"}},{"kind":"Field","name":{"kind":"Name","value":"alpha"}},{"kind":"Field","name":{"kind":"Name","value":"requireGain"}},{"kind":"Field","name":{"kind":"Name","value":"guardrails"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"metric"}},{"kind":"Field","name":{"kind":"Name","value":"maxIncreasePercent"}},{"kind":"Field","name":{"kind":"Name","value":"maxIncreasePoints"}}]}},{"kind":"Field","name":{"kind":"Name","value":"judge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minLabels"}},{"kind":"Field","name":{"kind":"Name","value":"minKappa"}}]}}]}}]} as unknown as DocumentNode<AssetsOfKindQuery, AssetsOfKindQueryVariables>;
export const CreateAssetDocument = {"__meta__":{"hash":"sha256:d616cd9aeb4400e9530c059f9c0460af2efaa60525097bd3d4f10a8efd0c0e90"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateAsset"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateAssetInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createAsset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<CreateAssetMutation, CreateAssetMutationVariables>;
export const AddAssetVersionDocument = {"__meta__":{"hash":"sha256:1f3fc811d7f95bef26dbc62e5b5699818196672aae79c1674ce9b4bf492c496d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddAssetVersion"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"AddAssetVersionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addAssetVersion"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"variables"}}]}}]}}]} as unknown as DocumentNode<AddAssetVersionMutation, AddAssetVersionMutationVariables>;
export const ConnectionChoicesDocument = {"__meta__":{"hash":"sha256:0d14459ed5f10155d70fcbaa10f6dd55713e47b831d0c3d24922ac16a0946531"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConnectionChoices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"modelConnections"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"simulated"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ConnectionChoicesQuery, ConnectionChoicesQueryVariables>;
export const ReleasesUsingDocument = {"__meta__":{"hash":"sha256:3d2364c239053b655c9bb0c7c1ae6dadfdd03c0962e7373787af94523af7bbe7"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ReleasesUsing"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"releases"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"bindings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"assetVersion"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"asset"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<ReleasesUsingQuery, ReleasesUsingQueryVariables>;
export const CreateReleaseDocument = {"__meta__":{"hash":"sha256:3e7dd5fa0d2ab476f6d9dfd94d507366c95ce7cd06b7e0e38995b86b201b3325"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateRelease"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateReleaseInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createRelease"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<CreateReleaseMutation, CreateReleaseMutationVariables>;
export const SetPromptGateSettingsDocument = {"__meta__":{"hash":"sha256:c9cc5647e06d1c6f49bb96a0992945f94ed2d6143d3e2e112891c9a3c2a1a9b2"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetPromptGateSettings"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"assetId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"settings"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PromptGateSettingsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setPromptGateSettings"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"assetId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"assetId"}}},{"kind":"Argument","name":{"kind":"Name","value":"settings"},"value":{"kind":"Variable","name":{"kind":"Name","value":"settings"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"gateSettings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"datasetId"}},{"kind":"Field","name":{"kind":"Name","value":"split"}},{"kind":"Field","name":{"kind":"Name","value":"trialsPerCase"}},{"kind":"Field","name":{"kind":"Name","value":"checks"}},{"kind":"Field","name":{"kind":"Name","value":"shipPolicy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ShipPolicyFormFields"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ShipPolicyFormFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ShipPolicy"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"qualityMarginPoints"}},{"kind":"Field","name":{"kind":"Name","value":"alpha"}},{"kind":"Field","name":{"kind":"Name","value":"requireGain"}},{"kind":"Field","name":{"kind":"Name","value":"guardrails"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"metric"}},{"kind":"Field","name":{"kind":"Name","value":"maxIncreasePercent"}},{"kind":"Field","name":{"kind":"Name","value":"maxIncreasePoints"}}]}},{"kind":"Field","name":{"kind":"Name","value":"judge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minLabels"}},{"kind":"Field","name":{"kind":"Name","value":"minKappa"}}]}}]}}]} as unknown as DocumentNode<SetPromptGateSettingsMutation, SetPromptGateSettingsMutationVariables>;
export const GateDatasetsDocument = {"__meta__":{"hash":"sha256:7497c20085fa895b2b470641ed6903b65553cf82518edab066aa84c3cab48ff6"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GateDatasets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"workspace"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"defaultShipPolicy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ShipPolicyFormFields"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"datasets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ShipPolicyFormFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ShipPolicy"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"qualityMarginPoints"}},{"kind":"Field","name":{"kind":"Name","value":"alpha"}},{"kind":"Field","name":{"kind":"Name","value":"requireGain"}},{"kind":"Field","name":{"kind":"Name","value":"guardrails"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"metric"}},{"kind":"Field","name":{"kind":"Name","value":"maxIncreasePercent"}},{"kind":"Field","name":{"kind":"Name","value":"maxIncreasePoints"}}]}},{"kind":"Field","name":{"kind":"Name","value":"judge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minLabels"}},{"kind":"Field","name":{"kind":"Name","value":"minKappa"}}]}}]}}]} as unknown as DocumentNode<GateDatasetsQuery, GateDatasetsQueryVariables>;
export const ReleasesPageDocument = {"__meta__":{"hash":"sha256:303653915803c916b31953e9a061ff2d5b10258278eb82f2a42102498b9ea705"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ReleasesPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"releases"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"PageInfoFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"bindings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"assetVersion"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"asset"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"builtIn"}}]}}]}}]}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"PageInfoFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"PageInfo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}}]} as unknown as DocumentNode<ReleasesPageQuery, ReleasesPageQueryVariables>;
export const WorkspaceSettingsDocument = {"__meta__":{"hash":"sha256:e20e52d552631a3ffa5a7b6f7e21931dac5eee8da53ae15e69c2825a6fb032c9"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WorkspaceSettings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"workspace"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WorkspaceSettingsFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ShipPolicyFormFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ShipPolicy"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"qualityMarginPoints"}},{"kind":"Field","name":{"kind":"Name","value":"alpha"}},{"kind":"Field","name":{"kind":"Name","value":"requireGain"}},{"kind":"Field","name":{"kind":"Name","value":"guardrails"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"metric"}},{"kind":"Field","name":{"kind":"Name","value":"maxIncreasePercent"}},{"kind":"Field","name":{"kind":"Name","value":"maxIncreasePoints"}}]}},{"kind":"Field","name":{"kind":"Name","value":"judge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minLabels"}},{"kind":"Field","name":{"kind":"Name","value":"minKappa"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WorkspaceSettingsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WorkspaceSettings"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"allowHostedRuns"}},{"kind":"Field","name":{"kind":"Name","value":"allowSelfSignOff"}},{"kind":"Field","name":{"kind":"Name","value":"maxRunningComparisons"}},{"kind":"Field","name":{"kind":"Name","value":"requestsPerMinutePerToken"}},{"kind":"Field","name":{"kind":"Name","value":"maxCallsPerComparison"}},{"kind":"Field","name":{"kind":"Name","value":"ambiguousOutcomes"}},{"kind":"Field","name":{"kind":"Name","value":"defaultShipPolicy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ShipPolicyFormFields"}}]}}]}}]} as unknown as DocumentNode<WorkspaceSettingsQuery, WorkspaceSettingsQueryVariables>;
export const UpdateWorkspaceSettingsDocument = {"__meta__":{"hash":"sha256:a0c462c29ae8bd2002a49c4fd6c94b7fc22eaf78a7823e01f7237e4c11ebf706"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateWorkspaceSettings"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"WorkspaceSettingsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateWorkspaceSettings"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"settings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"WorkspaceSettingsFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ShipPolicyFormFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ShipPolicy"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"qualityMarginPoints"}},{"kind":"Field","name":{"kind":"Name","value":"alpha"}},{"kind":"Field","name":{"kind":"Name","value":"requireGain"}},{"kind":"Field","name":{"kind":"Name","value":"guardrails"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"metric"}},{"kind":"Field","name":{"kind":"Name","value":"maxIncreasePercent"}},{"kind":"Field","name":{"kind":"Name","value":"maxIncreasePoints"}}]}},{"kind":"Field","name":{"kind":"Name","value":"judge"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"minLabels"}},{"kind":"Field","name":{"kind":"Name","value":"minKappa"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"WorkspaceSettingsFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"WorkspaceSettings"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"allowHostedRuns"}},{"kind":"Field","name":{"kind":"Name","value":"allowSelfSignOff"}},{"kind":"Field","name":{"kind":"Name","value":"maxRunningComparisons"}},{"kind":"Field","name":{"kind":"Name","value":"requestsPerMinutePerToken"}},{"kind":"Field","name":{"kind":"Name","value":"maxCallsPerComparison"}},{"kind":"Field","name":{"kind":"Name","value":"ambiguousOutcomes"}},{"kind":"Field","name":{"kind":"Name","value":"defaultShipPolicy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ShipPolicyFormFields"}}]}}]}}]} as unknown as DocumentNode<UpdateWorkspaceSettingsMutation, UpdateWorkspaceSettingsMutationVariables>;
export const MembersDocument = {"__meta__":{"hash":"sha256:2f7890b7b4764630b0758f6867476681d6e5bc06ecf1c5efe80592fce6ca05df"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Members"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"members"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]}}]}}]}}]} as unknown as DocumentNode<MembersQuery, MembersQueryVariables>;
export const AddMemberDocument = {"__meta__":{"hash":"sha256:3339434b20923f6e97eb1151dac27ff568b6ec09f45f78a14436c0ff7059e461"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddMember"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"role"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Role"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"email"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addMember"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"role"},"value":{"kind":"Variable","name":{"kind":"Name","value":"role"}}},{"kind":"Argument","name":{"kind":"Name","value":"email"},"value":{"kind":"Variable","name":{"kind":"Name","value":"email"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<AddMemberMutation, AddMemberMutationVariables>;
export const SetMemberRoleDocument = {"__meta__":{"hash":"sha256:31d962c187aefbbdcaf58366f504e3ee7b8806d022f4480c55d043f4e4cf49ea"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SetMemberRole"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"memberId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"role"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Role"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"setMemberRole"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"memberId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"memberId"}}},{"kind":"Argument","name":{"kind":"Name","value":"role"},"value":{"kind":"Variable","name":{"kind":"Name","value":"role"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"role"}}]}}]}}]} as unknown as DocumentNode<SetMemberRoleMutation, SetMemberRoleMutationVariables>;
export const RemoveMemberDocument = {"__meta__":{"hash":"sha256:e7b92af82ded4d5f12a59ea2350aacb602fcc8861e28ea86b218fe7f9adee361"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RemoveMember"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"memberId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"removeMember"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"memberId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"memberId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<RemoveMemberMutation, RemoveMemberMutationVariables>;
export const TokensDocument = {"__meta__":{"hash":"sha256:28540fa07fa3f209ed9913b0d08fb4a585a47fed9334d6bbd532c3a6cb11ece9"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Tokens"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"workspace"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"tokens"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"prefix"}},{"kind":"Field","name":{"kind":"Name","value":"memberId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<TokensQuery, TokensQueryVariables>;
export const CreateTokenDocument = {"__meta__":{"hash":"sha256:33f722c91dfa1980661d98b75dd8252024cdfa1fb6d003591509a236bd6406bd"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateToken"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"memberId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createToken"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"Argument","name":{"kind":"Name","value":"memberId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"memberId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"secret"}},{"kind":"Field","name":{"kind":"Name","value":"token"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]} as unknown as DocumentNode<CreateTokenMutation, CreateTokenMutationVariables>;
export const RevokeTokenDocument = {"__meta__":{"hash":"sha256:89a738315d74e1e4af4635f0b279a5edf95b3bf1d389dad5247be5e146b1d1d6"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RevokeToken"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokeToken"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]}}]} as unknown as DocumentNode<RevokeTokenMutation, RevokeTokenMutationVariables>;
export const ModelConnectionsDocument = {"__meta__":{"hash":"sha256:621b550f99e25b7e75b901c45b7c9bd6c3044648dad10547ca5ad158eebc68b8"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ModelConnections"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"modelConnections"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"baseUrl"}},{"kind":"Field","name":{"kind":"Name","value":"hasApiKey"}},{"kind":"Field","name":{"kind":"Name","value":"simulated"}},{"kind":"Field","name":{"kind":"Name","value":"inputCentsPerMillionTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputCentsPerMillionTokens"}},{"kind":"Field","name":{"kind":"Name","value":"monthlyCapCents"}},{"kind":"Field","name":{"kind":"Name","value":"maxConcurrency"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"checkedAt"}},{"kind":"Field","name":{"kind":"Name","value":"monthToDateSpentCents"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ModelConnectionsQuery, ModelConnectionsQueryVariables>;
export const CreateModelConnectionDocument = {"__meta__":{"hash":"sha256:bc11b59b986117b132d46b776dc6a648581cfbc6a66f24e3f657a715e1e2620a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateModelConnection"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateModelConnectionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createModelConnection"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<CreateModelConnectionMutation, CreateModelConnectionMutationVariables>;
export const CheckModelConnectionDocument = {"__meta__":{"hash":"sha256:f0a317e14682f97323d16abc7cb2267ce20332f293d9da60cb81d3c71ef9e39d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CheckModelConnection"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"checkModelConnection"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"checkedAt"}}]}}]}}]} as unknown as DocumentNode<CheckModelConnectionMutation, CheckModelConnectionMutationVariables>;
export const WebhooksDocument = {"__meta__":{"hash":"sha256:84f3603d14dc96a6feb40a5c2c0c7769710bb4d76a766eea275edc4c3215d2ab"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Webhooks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"webhooks"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"50"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"events"}},{"kind":"Field","name":{"kind":"Name","value":"experimentId"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"deliveries"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"5"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"subjectId"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"attemptCount"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"deliveredAt"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"httpStatus"}},{"kind":"Field","name":{"kind":"Name","value":"errorCode"}}]}}]}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<WebhooksQuery, WebhooksQueryVariables>;
export const CreateWebhookDocument = {"__meta__":{"hash":"sha256:47d00f73adf89b88385c91163cda023a49a62c5ebd30eabbc960e08b7c8a32ac"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateWebhook"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"url"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"secret"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"events"}},"type":{"kind":"NonNullType","type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"WebhookEvent"}}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createWebhook"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"url"},"value":{"kind":"Variable","name":{"kind":"Name","value":"url"}}},{"kind":"Argument","name":{"kind":"Name","value":"secret"},"value":{"kind":"Variable","name":{"kind":"Name","value":"secret"}}},{"kind":"Argument","name":{"kind":"Name","value":"events"},"value":{"kind":"Variable","name":{"kind":"Name","value":"events"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<CreateWebhookMutation, CreateWebhookMutationVariables>;
export const RedeliverWebhookDocument = {"__meta__":{"hash":"sha256:3c891a1ffcd007258875b52af8b6d81dd46571c91a3e0a643ee192267e741c24"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RedeliverWebhook"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"deliveryId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"redeliverWebhook"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"deliveryId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"deliveryId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]} as unknown as DocumentNode<RedeliverWebhookMutation, RedeliverWebhookMutationVariables>;
export const TracePageDocument = {"__meta__":{"hash":"sha256:36c901c05bf69b5bccf45d3c08c2cba00885ccce76351860a51f7b2efad453a6"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TracePage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"trace"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"service"}},{"kind":"Field","name":{"kind":"Name","value":"release"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"rootName"}},{"kind":"Field","name":{"kind":"Name","value":"input"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","name":{"kind":"Name","value":"llmCalls"}},{"kind":"Field","name":{"kind":"Name","value":"toolCalls"}},{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"costCents"}},{"kind":"Field","name":{"kind":"Name","value":"caseId"}},{"kind":"Field","name":{"kind":"Name","value":"steps"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"errorType"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"inputMessages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"toolCalls"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"arguments"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"outputMessages"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"content"}},{"kind":"Field","name":{"kind":"Name","value":"toolCalls"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"arguments"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"costCents"}},{"kind":"Field","name":{"kind":"Name","value":"toolName"}},{"kind":"Field","name":{"kind":"Name","value":"arguments"}},{"kind":"Field","name":{"kind":"Name","value":"result"}},{"kind":"Field","name":{"kind":"Name","value":"parentId"}}]}}]}}]}}]} as unknown as DocumentNode<TracePageQuery, TracePageQueryVariables>;
export const TracesPageDocument = {"__meta__":{"hash":"sha256:3b3c682776a437fead5a7752d983c38b00d505418490a8298d64861530f864ed"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TracesPage"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TraceFilter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"traces"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"service"}},{"kind":"Field","name":{"kind":"Name","value":"release"}},{"kind":"Field","name":{"kind":"Name","value":"input"}},{"kind":"Field","name":{"kind":"Name","value":"output"}},{"kind":"Field","name":{"kind":"Name","value":"stepCount"}},{"kind":"Field","name":{"kind":"Name","value":"inputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"outputTokens"}},{"kind":"Field","name":{"kind":"Name","value":"costCents"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"status"}}]}}]}}]}}]}}]} as unknown as DocumentNode<TracesPageQuery, TracesPageQueryVariables>;
export const TraceCountDocument = {"__meta__":{"hash":"sha256:446e973d42161c4b8fda30264eede6ae08062f7319200055e8c0dad4e56b0a11"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"TraceCount"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TraceFilter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"traces"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"0"}},{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}}]}}]} as unknown as DocumentNode<TraceCountQuery, TraceCountQueryVariables>;
export const WritableDatasetsDocument = {"__meta__":{"hash":"sha256:a760a3bbe193f38904379d5825c9e0f1e3a6bead58f7d79051bca54168857386"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"WritableDatasets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"datasets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"edges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"node"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"builtIn"}}]}}]}}]}}]}}]} as unknown as DocumentNode<WritableDatasetsQuery, WritableDatasetsQueryVariables>;
export const AddTraceToDatasetDocument = {"__meta__":{"hash":"sha256:2579c96d435c1b27fd4b554c3c0df5554e0ce705d6e5e85dee35595377d7ae83"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddTraceToDataset"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"traceId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"datasetId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"expected"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addTraceToDataset"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"traceId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"traceId"}}},{"kind":"Argument","name":{"kind":"Name","value":"datasetId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"datasetId"}}},{"kind":"Argument","name":{"kind":"Name","value":"expected"},"value":{"kind":"Variable","name":{"kind":"Name","value":"expected"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"caseCount"}}]}}]}}]} as unknown as DocumentNode<AddTraceToDatasetMutation, AddTraceToDatasetMutationVariables>;
export const PreviewDatasetFromTracesDocument = {"__meta__":{"hash":"sha256:07fa912e8b7e6f531be076952c0de341d9f00c750496264427a12759a5f49a0c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PreviewDatasetFromTraces"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateDatasetFromTracesInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"previewDatasetFromTraces"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"matched"}},{"kind":"Field","name":{"kind":"Name","value":"taken"}},{"kind":"Field","name":{"kind":"Name","value":"duplicates"}},{"kind":"Field","name":{"kind":"Name","value":"withoutInput"}},{"kind":"Field","name":{"kind":"Name","value":"redacted"}},{"kind":"Field","name":{"kind":"Name","value":"withExpected"}},{"kind":"Field","name":{"kind":"Name","value":"strata"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"matched"}},{"kind":"Field","name":{"kind":"Name","value":"taken"}}]}}]}}]}}]} as unknown as DocumentNode<PreviewDatasetFromTracesQuery, PreviewDatasetFromTracesQueryVariables>;
export const CreateDatasetFromTracesDocument = {"__meta__":{"hash":"sha256:8111c6a30c0040cd308ab32ceffe770fd5a993064f801db91aa707cdba9801e1"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreateDatasetFromTraces"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateDatasetFromTracesInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createDatasetFromTraces"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"taken"}},{"kind":"Field","name":{"kind":"Name","value":"dataset"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"version"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"caseCount"}}]}}]}}]}}]} as unknown as DocumentNode<CreateDatasetFromTracesMutation, CreateDatasetFromTracesMutationVariables>;