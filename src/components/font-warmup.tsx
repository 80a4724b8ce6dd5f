import { useEffect, useState } from 'react';
import { whenIdle } from './when-idle';

// The console's type styles: each family at each size, in each weight.
const GROUPS = ['font-sans', 'font-mono'].flatMap((family) => ['text-xs', 'text-sm', 'text-base', 'text-lg', 'text-xl', 'text-2xl'].map((size) => `${family} ${size}`));
const WEIGHTS = ['font-normal', 'font-medium', 'font-semibold', 'font-bold'];
/**
 * Letters, figures, and the characters beyond ASCII in the console's own text: a glyph the first
 * font lacks has a fallback font looked up for it.
 */
const SAMPLE = 'Aa0 ’“”·…—–−→×✓✕';

/**
 * The console's type styles, laid out unseen and out of the accessibility tree, one size per idle
 * period (in the frame after it). A font's first layout at a size and weight asks the system
 * for it — on Linux a round trip to the browser process and fontconfig, up to a few ms each — and
 * a dozen asked for in a step's first frame can push that frame past 50 ms. Rendered on a page
 * before the step that needs them (the Import page's file step, before the Columns step).
 */
export function FontWarmup() {
  const [shown, setShown] = useState(0);
  useEffect(() => (shown < GROUPS.length ? whenIdle(() => setShown(shown + 1)) : undefined), [shown]);
  return (
    <div aria-hidden="true" className="pointer-events-none invisible absolute left-0 top-0 h-px w-px overflow-hidden">
      {GROUPS.slice(0, shown).flatMap((group) => WEIGHTS.map((weight) => <span key={`${group} ${weight}`} className={`${group} ${weight}`}>{SAMPLE}</span>))}
    </div>
  );
}
