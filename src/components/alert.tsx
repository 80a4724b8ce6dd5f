import type { ReactNode } from 'react';

const tones = {
  error: { box: 'border-red-200 bg-red-50 text-red-900', label: 'Error' },
  warning: { box: 'border-amber-200 bg-amber-50 text-amber-900', label: 'Warning' },
  info: { box: 'border-brand-100 bg-brand-50 text-brand-900', label: 'Note' },
  success: { box: 'border-emerald-200 bg-emerald-50 text-emerald-900', label: 'Done' },
} as const;

/** A message box; errors are announced at once (role=alert), the rest politely (role=status). */
export function Alert({ tone, title, children, action }: { tone: keyof typeof tones; title?: string; children: ReactNode; action?: ReactNode }) {
  const { box, label } = tones[tone];
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`flex items-start gap-3 rounded-lg border px-4 py-3 text-sm ${box}`}>
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{title ?? label}</p>
        <div className="mt-0.5">{children}</div>
      </div>
      {action}
    </div>
  );
}
