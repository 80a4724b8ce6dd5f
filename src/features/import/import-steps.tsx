import { STEP_ORDER as STEPS, type StepLabel } from './import-wizard';

/** Where the user is in the wizard, as an ordered list a screen reader reads as such. */
export function ImportSteps({ current }: { current: StepLabel }) {
  const index = STEPS.indexOf(current);
  return (
    <nav aria-label="Import steps" className="mb-6">
      <ol className="flex flex-wrap items-center gap-2 text-sm">
        {STEPS.map((step, i) => (
          <li key={step} className="flex items-center gap-2" aria-current={i === index ? 'step' : undefined}>
            <span
              className={`flex size-6 items-center justify-center rounded-full text-xs font-semibold ${
                i < index ? 'bg-brand-700 text-white' : i === index ? 'bg-brand-100 text-brand-800 ring-2 ring-brand-600' : 'bg-slate-200 text-slate-600'
              }`}
            >
              {i < index ? <span aria-label="done">✓</span> : i + 1}
            </span>
            <span className={i === index ? 'font-semibold text-slate-900' : 'text-slate-600'}>{step}</span>
            {i < STEPS.length - 1 && <span aria-hidden="true" className="mx-1 h-px w-8 bg-slate-300" />}
          </li>
        ))}
      </ol>
    </nav>
  );
}
