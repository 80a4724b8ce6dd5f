import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { customFieldsQueryOptions } from '../../api/connect';
import { sharedBudget } from '../../api/rate-limit-budget';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { FontWarmup } from '../../components/font-warmup';
import { PageHeader } from '../../components/page-header';
import { plural } from '../../components/plural';
import { ProgressBar } from '../../components/progress-bar';
import type { JobSource } from '../../jobs/import-job';
import { estimateJobCost } from '../../jobs/job-cost';
import { POLL_BUDGET_RESERVE } from '../../jobs/job-settings';
import { getYourName } from '../../api/your-name';
import { describeMissingTargets } from '../../spreadsheet/column-mapping';
import { describeMemory, describeMissingColumns, mappingToRemember } from '../../spreadsheet/remembered-mapping';
import type { RetryRows, TableSummary } from '../../workers/import-protocol';
import { ColumnMapper } from './column-mapper';
import { ForesightPanel } from './foresight-panel';
import { DropZone } from './drop-zone';
import { STEP_LABELS } from './import-wizard';
import { ImportSteps } from './import-steps';
import { ReadySummary } from './ready-summary';
import { RememberedMappingsList, useRememberedMappings } from './remembered-mappings';
import { ReviewStep } from './review-step';
import { SendPanel, useChunkRows } from './send-panel';
import { SourceOptions } from './source-options';
import { TemplateLinks } from './template-links';
import { useForesight } from './use-foresight';
import { useImportWizard } from './use-import-wizard';
import { ImportSessionProvider } from './use-import-session';

export const IMPORT_PAGE = {
  title: 'Import shipments',
  description:
    'Drop a spreadsheet of container, bill of lading or booking numbers. You map its columns, fix what is wrong, and send the valid rows to the tracking service.',
};

/** Rows handed back by a job's fix & retry: read as a dropped file, sent as a job with this source. */
export interface RetryStart {
  file: File;
  /** The rows' numbers in the original file and what the service said about each. */
  rows: RetryRows;
  source: Extract<JobSource, { kind: 'retry' }>;
}

/** The Import page: the wizard for one file, on a connection (the route makes sure of one). */
export function ImportPage({ target, retry, preloadJobPage }: { target: { baseUrl: string; apiKey: string }; retry?: RetryStart; preloadJobPage?: () => void }) {
  return (
    <div>
      <PageHeader {...IMPORT_PAGE} />
      <ImportSessionProvider>
        <ImportWizard target={target} retry={retry} preloadJobPage={preloadJobPage} />
      </ImportSessionProvider>
    </div>
  );
}

function ImportWizard({ target, retry, preloadJobPage }: { target: { baseUrl: string; apiKey: string }; retry?: RetryStart; preloadJobPage?: () => void }) {
  const customFields = useQuery(customFieldsQueryOptions(target));
  const customFieldSlugs = customFields.data?.map((field) => field.slug);
  const chunkRows = useChunkRows();
  const remembered = useRememberedMappings(target);
  const wizard = useImportWizard(customFieldSlugs, chunkRows, remembered.mappings);
  const state = wizard.state.current;
  // The retry's source holds until the user starts over with another file.
  const [retrySource, setRetrySource] = useState(retry?.source ?? null);
  const retryRead = useRef(false);
  const { readFile } = wizard;
  useEffect(() => {
    // Once, also under StrictMode's second effect run: the ref outlives it.
    if (!retry || retryRead.current) return;
    retryRead.current = true;
    readFile(retry.file, retry.rows);
  }, [retry, readFile]);
  const startOver = () => {
    setRetrySource(null);
    wizard.startOver();
  };
  const steps = <ImportSteps current={STEP_LABELS[state.step]} />;
  const budget = useSyncExternalStore(sharedBudget.subscribe, sharedBudget.getSnapshot);
  // Check against the service leaves what sending this file needs, and the polls' own reserve.
  const [now] = useState(() => Date.now());
  const sendCost =
    state.step === 'ready' ? estimateJobCost({ rows: state.submission.submittedRows, chunkRows: state.submission.chunkSize, general: budget.general, importBucket: budget.import, now }) : null;
  const reserve = POLL_BUDGET_RESERVE + (sendCost ? sendCost.uploads + sendCost.polls : 0);
  const foresight = useForesight({
    target,
    active: state.step === 'ready',
    reviewing: state.step === 'review' || state.step === 'ready',
    reserve,
    onState: wizard.reviewChanged,
  });

  switch (state.step) {
    case 'drop':
      return (
        <>
          {steps}
          {state.error && (
            <div className="mb-4">
              <Alert tone="error" title="This file cannot be imported">{state.error}</Alert>
            </div>
          )}
          <DropZone onFile={wizard.readFile} />
          <FontWarmup />
          <TemplateLinks customFieldSlugs={customFieldSlugs ?? []} />
          <RememberedMappingsList remembered={remembered} target={target} />
        </>
      );
    case 'reading':
      return (
        <>
          {steps}
          <section aria-label="Reading the file" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
            <ProgressBar label={`Reading ${state.fileName}…`} value={state.progress} />
            <Button variant="secondary" className="mt-4" onClick={startOver}>Cancel</Button>
          </section>
        </>
      );
    case 'map': {
      const missing = describeMissingTargets(state.mapping);
      return (
        <>
          {steps}
          <FileBar summary={state.summary} headerRow={state.headerRow} onStartOver={startOver} />
          <div className="mb-6">
            <SourceOptions summary={state.summary} headerRow={state.headerRow} disabled={state.busy} onReread={wizard.reread} onHeaderRow={wizard.chooseHeaderRow} />
          </div>
          {state.error && (
            <div className="mb-4">
              <Alert tone="error">{state.error}</Alert>
            </div>
          )}
          {state.remembered && (
            <div className="mb-4">
              <Alert tone="info" title="Mapped from memory">
                The columns are set {describeMemory(state.remembered.memory)}. Each says so below, and you can change any of them.
                {state.remembered.missing.length > 0 && <> {describeMissingColumns(state.remembered.missing, state.remembered.memory)}</>}
              </Alert>
            </div>
          )}
          {state.summary.rowCount <= state.headerRow + 1 && (
            <div className="mb-4">
              <Alert tone="warning" title="No data rows">
                The file has a header row but no data rows under it: there is nothing to import. Check the header row above, or choose another file.
              </Alert>
            </div>
          )}
          <ColumnMapper
            mapping={state.mapping}
            samples={state.summary.preview.slice(state.headerRow + 1, state.headerRow + 6)}
            customFieldSlugs={customFieldSlugs ?? null}
            onChange={wizard.chooseTarget}
          />
          <div className="mt-6 flex items-center justify-end gap-3">
            {missing && <p className="text-sm text-slate-600">{missing}</p>}
            <Button disabled={missing !== null || state.busy} onClick={wizard.buildReview}>
              Continue to review
            </Button>
          </div>
        </>
      );
    }
    case 'review':
      return (
        <>
          {steps}
          <FileBar summary={state.summary} headerRow={state.headerRow} onStartOver={startOver} />
          <ReviewStep
            columns={state.columns}
            numbering={state.summary.numbering}
            retried={state.summary.retried}
            state={state.review}
            firstRows={state.firstRows}
            busy={state.busy}
            error={state.error}
            onState={wizard.reviewChanged}
            onBack={wizard.back}
            onContinue={wizard.prepare}
          />
        </>
      );
    case 'ready':
      return (
        <>
          {steps}
          <FileBar summary={state.summary} headerRow={state.headerRow} onStartOver={startOver} />
          <ReadySummary
            submission={state.submission}
            numbering={state.summary.numbering}
            foresight={
              <ForesightPanel
                counts={state.review.foresight}
                browser={foresight.browser}
                team={foresight.team}
                service={foresight.service}
                remaining={budget.general?.remaining ?? null}
                resetAt={budget.general?.resetAt ?? null}
                reserve={reserve}
                onShowRows={wizard.showRows}
                onCheck={() => void foresight.startCheck()}
                onReadFrom={(page, known) => void foresight.readFrom(page, known)}
                onCancel={foresight.cancelCheck}
              />
            }
            send={
              <SendPanel
                rowsToSend={state.submission.submittedRows}
                chunkRows={state.submission.chunkSize}
                numbering={state.summary.numbering}
                fileName={state.summary.fileName}
                sheet={state.summary.kind === 'csv' ? undefined : state.summary.sheet}
                retrySource={retrySource}
                sourceFacts={wizard.sourceFacts}
                loadRows={wizard.loadSubmissionRows}
                mappingToRemember={() =>
                  retrySource || state.summary.retried
                    ? null
                    : mappingToRemember({
                        header: state.summary.preview[state.headerRow] ?? [],
                        mapping: state.mapping,
                        headerRow: state.headerRow,
                        detectedHeaderRow: state.detectedHeaderRow,
                        fileName: state.summary.fileName,
                        sheet: state.summary.kind === 'csv' ? null : state.summary.sheet,
                        savedAt: Date.now(),
                        savedBy: getYourName(),
                      })
                }
                preloadJobPage={preloadJobPage}
              />
            }
            onBack={wizard.back}
            onStartOver={startOver}
          />
        </>
      );
  }
}

function FileBar({ summary, headerRow, onStartOver }: { summary: TableSummary; headerRow: number; onStartOver: () => void }) {
  const dataRows = Math.max(0, summary.rowCount - headerRow - 1);
  const details = [
    summary.kind.toUpperCase(),
    summary.kind === 'csv' ? `${summary.encoding ?? ''}` : `sheet “${summary.sheet}”`,
    plural(dataRows, 'data row'),
  ].filter(Boolean);
  return (
    <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-slate-700">
        <span className="font-semibold text-slate-900">{summary.fileName}</span> · {details.join(' · ')}
      </p>
      <Button variant="ghost" onClick={onStartOver}>Choose another file</Button>
    </div>
  );
}
