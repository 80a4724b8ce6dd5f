import { useState } from 'react';
import { downloadFile } from '../../components/download-file';
import { DownloadIcon } from '../../components/icons';
import { useImportSession } from './use-import-session';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * The import template in both formats, with the workspace's custom fields when known. Both are
 * written in the import worker, which already loads SheetJS and papaparse; the page loads neither.
 */
export function TemplateLinks({ customFieldSlugs }: { customFieldSlugs: readonly string[] }) {
  const session = useImportSession();
  const [error, setError] = useState<string | null>(null);
  const download = async (format: 'csv' | 'xlsx') => {
    try {
      const { bytes } = await session.request('template', { customFieldSlugs: [...customFieldSlugs], format });
      downloadFile(bytes as Uint8Array<ArrayBuffer>, `shipments-template.${format}`, format === 'csv' ? 'text/csv;charset=utf-8' : XLSX_TYPE);
    } catch (e) {
      setError(`The ${format.toUpperCase()} template could not be made: ${(e as Error).message}`);
    }
  };
  const linkClass = 'inline-flex items-center gap-1 font-medium text-brand-700 underline-offset-2 hover:underline';
  return (
    <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-600">
      <span>Start from a template:</span>
      <button type="button" className={linkClass} onClick={() => void download('csv')}>
        <DownloadIcon width={16} height={16} /> CSV template
      </button>
      <button type="button" className={linkClass} onClick={() => void download('xlsx')}>
        <DownloadIcon width={16} height={16} /> XLSX template
      </button>
      {error && <span role="alert" className="text-red-700">{error}</span>}
    </div>
  );
}
