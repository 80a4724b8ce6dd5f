/** A labelled progress bar; screen readers hear the label and the percentage. */
export function ProgressBar({ label, value }: { label: string; value: number | null }) {
  const percent = value === null ? null : Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div>
      <div className="mb-1 flex justify-between text-sm text-slate-700">
        <span>{label}</span>
        {percent !== null && <span aria-hidden="true">{percent}%</span>}
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div className={`h-full rounded-full bg-brand-600 transition-[width] ${percent === null ? 'w-1/3 animate-pulse' : ''}`} style={percent === null ? undefined : { width: `${percent}%` }} />
      </div>
    </div>
  );
}
