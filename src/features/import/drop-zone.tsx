import { Link } from '@tanstack/react-router';
import { useDropzone } from 'react-dropzone';
import { UploadIcon } from '../../components/icons';

/**
 * Drag and drop, click, or Enter/Space on the focused zone. No MIME filter here: types are
 * decided by content in the worker, so a refused file gets a sentence that says why.
 */
export function DropZone({ onFile, disabled }: { onFile: (file: File) => void; disabled?: boolean }) {
  const { getRootProps, getInputProps, isDragActive } = useDropzone({
    multiple: false,
    disabled,
    onDrop: (accepted) => {
      const file = accepted[0];
      if (file) onFile(file);
    },
  });

  return (
    <>
      {/* The input sits beside the zone, not inside it: a focusable input within a role=button
          is nested interaction for assistive technology. The zone opens it by click or key. */}
      <input {...getInputProps({ 'aria-label': 'Spreadsheet file' })} />
      <div
      {...getRootProps({
        role: 'button',
        'aria-label': 'Choose a spreadsheet to import (CSV, XLS or XLSX), or drop it here',
        'aria-describedby': 'drop-zone-hint',
      })}
      className={`flex cursor-pointer flex-col items-center justify-center rounded-xl border-2 border-dashed px-8 py-14 text-center transition-colors ${
        isDragActive ? 'border-brand-600 bg-brand-50' : 'border-slate-300 bg-white hover:border-brand-600 hover:bg-slate-50'
      }`}
    >
      <span aria-hidden="true" className="mb-4 flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <UploadIcon width={24} height={24} />
      </span>
      <p className="text-base font-semibold text-slate-900">{isDragActive ? 'Drop the file to read it' : 'Drop a spreadsheet here, or click to choose one'}</p>
      <p id="drop-zone-hint" className="mt-2 max-w-md text-sm text-slate-600">
        CSV, XLS or XLSX with a header row. It is read in your browser; nothing is sent until you submit.
      </p>
      </div>
      <p className="mt-3 text-center text-sm text-slate-600">
        Only a few shipments? <Link to="/quick-add" className="font-medium text-brand-700 underline underline-offset-2">Type or paste them in Quick add</Link>.
      </p>
    </>
  );
}
