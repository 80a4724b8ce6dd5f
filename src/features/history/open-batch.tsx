import { useNavigate } from '@tanstack/react-router';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/button';

/** A batch id someone was given (by a colleague, an e-mail, the service) opens its batch page. */
export function OpenBatch() {
  const id = useId();
  const navigate = useNavigate();
  const [batchId, setBatchId] = useState('');
  const [empty, setEmpty] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = batchId.trim();
    setEmpty(trimmed === '');
    if (trimmed !== '') void navigate({ to: '/batches/$batchId', params: { batchId: trimmed } });
  };

  return (
    <form onSubmit={submit} aria-label="Open a batch by its id" className="mb-6">
      <div className="flex flex-wrap items-end gap-2">
        <div className="w-96 max-w-full">
          <label htmlFor={`${id}-batch`} className="block text-sm font-medium text-slate-800">
            Batch id
          </label>
          <input
            id={`${id}-batch`}
            value={batchId}
            onChange={(event) => {
              setBatchId(event.target.value);
              if (empty) setEmpty(false);
            }}
            placeholder="Paste a batch id to open its results"
            spellCheck={false}
            autoComplete="off"
            aria-invalid={empty ? true : undefined}
            aria-describedby={`${id}-said`}
            className="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm shadow-sm focus:border-brand-600 focus:outline-none"
          />
        </div>
        <Button type="submit" variant="secondary">
          Open batch
        </Button>
      </div>
      {/* Always rendered, so the sentence is announced when it appears. */}
      <p id={`${id}-said`} aria-live="polite" className="mt-1 text-sm text-red-700">
        {empty ? 'Type or paste a batch id first: the field is empty.' : ''}
      </p>
    </form>
  );
}
