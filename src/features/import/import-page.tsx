import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { customFieldsQueryOptions } from '../../api/connect';
import { useConnection } from '../../api/use-connection';
import { Alert } from '../../components/alert';
import { Button, buttonClass } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { PlugIcon } from '../../components/icons';
import { PageHeader } from '../../components/page-header';
import { ProgressBar } from '../../components/progress-bar';
import { type ColumnMapping, type ColumnTarget, describeMissingTargets, setColumnTarget, suggestColumnMapping } from '../../spreadsheet/column-mapping';
import { detectHeaderRow } from '../../spreadsheet/header-row';
import type { PreparedSubmission, ReadOptions, ReviewState, TableSummary } from '../../workers/import-protocol';
import { ColumnMapper } from './column-mapper';
import { DropZone } from './drop-zone';
import { ImportSteps } from './import-steps';
import { ReadySummary } from './ready-summary';
import { ReviewStep } from './review-step';
import { SendPanel, useChunkRows } from './send-panel';
import { CancelledError } from './import-worker-client';
import { SourceOptions } from './source-options';
import { TemplateLinks } from './template-links';
import { useImportWorker } from './use-import-worker';

interface Mapped {
  summary: TableSummary;
  headerRow: number;
  mapping: ColumnMapping;
}

type ImportState =
  | { step: 'drop'; error: string | null }
  | { step: 'reading'; fileName: string; progress: number | null }
  | ({ step: 'map'; busy: boolean; error: string | null } & Mapped)
  | ({ step: 'review'; columns: ColumnTarget[]; review: ReviewState } & Mapped)
  | ({ step: 'ready'; columns: ColumnTarget[]; review: ReviewState; submission: PreparedSubmission } & Mapped);

export function ImportPage() {
  const connection = useConnection();
  return (
    <div>
      <PageHeader
        title="Import shipments"
        description="Drop a spreadsheet of container, bill of lading or booking numbers. You map its columns, fix what is wrong, and send the valid rows to the tracking service."
      />
      {connection ? (
        <ImportWizard target={connection} />
      ) : (
        <EmptyState icon={<PlugIcon />} title="Connect before you import" action={<Link to="/connect" className={buttonClass()}>Connect</Link>}>
          Imports go to the shipment tracking service. Connect with your API key, or try everything on the local sandbox first.
        </EmptyState>
      )}
    </div>
  );
}

function ImportWizard({ target }: { target: { baseUrl: string; apiKey: string } }) {
  const worker = useImportWorker();
  const chunkRows = useChunkRows();
  const customFields = useQuery(customFieldsQueryOptions(target));
  const customFieldSlugs = customFields.data?.map((field) => field.slug) ?? null;
  const [state, setState] = useState<ImportState>({ step: 'drop', error: null });

  const mapSummary = (summary: TableSummary, headerRow?: number): ImportState => {
    const row = headerRow ?? detectHeaderRow(summary.preview, customFieldSlugs ?? undefined);
    const mapping = suggestColumnMapping(summary.preview[row] ?? [], { customFieldSlugs: customFieldSlugs ?? undefined });
    return { step: 'map', summary, headerRow: row, mapping, busy: false, error: null };
  };

  const readFile = async (file: File) => {
    setState({ step: 'reading', fileName: file.name, progress: null });
    try {
      const { summary } = await worker.call({ type: 'read', file, options: {} }, 'read-done', (progress) =>
        setState((s) => (s.step === 'reading' ? { ...s, progress } : s)),
      );
      setState(mapSummary(summary));
    } catch (error) {
      setState({ step: 'drop', error: error instanceof CancelledError ? null : (error as Error).message });
    }
  };

  const reread = async (options: ReadOptions) => {
    if (state.step !== 'map') return;
    setState({ ...state, busy: true, error: null });
    try {
      const { summary } = await worker.call({ type: 'reread', options }, 'read-done');
      setState(mapSummary(summary));
    } catch (error) {
      setState({ ...state, busy: false, error: (error as Error).message });
    }
  };

  const buildReview = async () => {
    if (state.step !== 'map') return;
    setState({ ...state, busy: true, error: null });
    try {
      const { columns, state: review } = await worker.call({ type: 'build-review', headerRow: state.headerRow, mapping: state.mapping }, 'review-ready');
      setState({ step: 'review', summary: state.summary, headerRow: state.headerRow, mapping: state.mapping, columns, review });
    } catch (error) {
      setState({ ...state, busy: false, error: (error as Error).message });
    }
  };

  const prepare = async () => {
    if (state.step !== 'review') return;
    const { submission } = await worker.call({ type: 'prepare', chunkSize: chunkRows }, 'prepared');
    setState({ ...state, step: 'ready', submission });
  };

  const startOver = () => {
    worker.cancel();
    setState({ step: 'drop', error: null });
  };

  switch (state.step) {
    case 'drop':
      return (
        <>
          <ImportSteps current="File" />
          {state.error && (
            <div className="mb-4">
              <Alert tone="error" title="This file cannot be imported">{state.error}</Alert>
            </div>
          )}
          <DropZone onFile={(file) => void readFile(file)} />
          <TemplateLinks customFieldSlugs={customFieldSlugs ?? []} worker={worker} />
        </>
      );
    case 'reading':
      return (
        <>
          <ImportSteps current="File" />
          <section aria-label="Reading the file" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
            <ProgressBar label={`Reading ${state.fileName}…`} value={state.progress} />
            <Button variant="secondary" className="mt-4" onClick={startOver}>Cancel</Button>
          </section>
        </>
      );
    case 'map': {
      const missing = describeMissingTargets(state.mapping);
      const onTarget = (column: number, next: ColumnTarget | null) =>
        setState({ ...state, mapping: setColumnTarget(state.mapping, column, next, { customFieldSlugs: customFieldSlugs ?? undefined }) });
      return (
        <>
          <ImportSteps current="Columns" />
          <FileBar summary={state.summary} headerRow={state.headerRow} onStartOver={startOver} />
          <div className="mb-6">
            <SourceOptions
              summary={state.summary}
              headerRow={state.headerRow}
              disabled={state.busy}
              onReread={(options) => void reread(options)}
              onHeaderRow={(row) => setState(mapSummary(state.summary, row))}
            />
          </div>
          {state.error && (
            <div className="mb-4">
              <Alert tone="error">{state.error}</Alert>
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
            customFieldSlugs={customFieldSlugs}
            onChange={onTarget}
          />
          <div className="mt-6 flex items-center justify-end gap-3">
            {missing && <p className="text-sm text-slate-600">{missing}</p>}
            <Button disabled={missing !== null || state.busy} onClick={() => void buildReview()}>
              Continue to review
            </Button>
          </div>
        </>
      );
    }
    case 'review':
      return (
        <>
          <ImportSteps current="Review" />
          <FileBar summary={state.summary} headerRow={state.headerRow} onStartOver={startOver} />
          <ReviewStep
            client={worker}
            columns={state.columns}
            state={state.review}
            onState={(review) => setState((s) => (s.step === 'review' ? { ...s, review } : s))}
            onBack={() => setState({ step: 'map', summary: state.summary, headerRow: state.headerRow, mapping: state.mapping, busy: false, error: null })}
            onContinue={() => void prepare()}
          />
        </>
      );
    case 'ready':
      return (
        <>
          <ImportSteps current="Ready" />
          <FileBar summary={state.summary} headerRow={state.headerRow} onStartOver={startOver} />
          <ReadySummary
            submission={state.submission}
            chunkSize={chunkRows}
            send={
              <SendPanel
                rowsToSend={state.submission.submittedRows}
                chunkRows={chunkRows}
                fileName={state.summary.fileName}
                loadRows={async (chunkSize) => (await worker.call({ type: 'submission-rows', chunkSize }, 'submission-rows-done')).rows}
              />
            }
            onBack={() => setState({ step: 'review', summary: state.summary, headerRow: state.headerRow, mapping: state.mapping, columns: state.columns, review: state.review })}
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
    `${dataRows.toLocaleString('en')} data row${dataRows === 1 ? '' : 's'}`,
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
