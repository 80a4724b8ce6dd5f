import type { ReactNode } from 'react';

export function EmptyState({ icon, title, children, action }: { icon: ReactNode; title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <section
      aria-label={title}
      className="mx-auto flex max-w-xl flex-col items-center rounded-xl border border-dashed border-slate-300 bg-white px-8 py-14 text-center"
    >
      <div aria-hidden="true" className="mb-4 flex size-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        {icon}
      </div>
      <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
      <div className="mt-2 text-sm leading-6 text-slate-600">{children}</div>
      {action && <div className="mt-6">{action}</div>}
    </section>
  );
}
