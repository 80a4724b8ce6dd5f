import type { ReactNode } from 'react';

export type StatusTone = 'neutral' | 'progress' | 'success' | 'warning' | 'danger';

const tones: Record<StatusTone, string> = {
  neutral: 'bg-slate-100 text-slate-700 ring-slate-300',
  progress: 'bg-sky-50 text-sky-800 ring-sky-300',
  success: 'bg-emerald-50 text-emerald-800 ring-emerald-300',
  warning: 'bg-amber-50 text-amber-900 ring-amber-300',
  danger: 'bg-red-50 text-red-800 ring-red-300',
};

const marks: Record<StatusTone, string> = { neutral: '•', progress: '◔', success: '✓', warning: '!', danger: '✕' };

/** A status as text with a mark, never colour alone. */
export function StatusBadge({ tone, children }: { tone: StatusTone; children: ReactNode }) {
  return (
    <span data-status-badge="" className={`inline-flex items-center gap-1 whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${tones[tone]}`}>
      <span aria-hidden="true">{marks[tone]}</span>
      {children}
    </span>
  );
}
