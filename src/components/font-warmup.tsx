import { useEffect, useState } from 'react';
import { whenIdle } from './when-idle';

// The console's type styles: each family at each size, in each weight.
const GROUPS = ['font-sans', 'font-mono'].flatMap((family) => ['text-xs', 'text-sm', 'text-base', 'text-lg', 'text-xl', 'text-2xl'].map((size) => `${family} ${size}`));
const WEIGHTS = ['font-normal', 'font-medium', 'font-semibold', 'font-bold'];
/** Letters, figures and the punctuation the console's own text uses beyond ASCII (a fallback font is looked up for each glyph the first font lacks). */
const SAMPLE = 'Aa0 ’·…→×';

/**
 * The console's type styles laid out while the page is idle, out of sight and out of the
 * accessibility tree, one size an idle period. The first layout of a font at a size and weight asks
 * the system for it (on Linux, a round trip to the browser process and fontconfig, up to a few ms
 * each); the Columns step uses a dozen the Import page does not, and asked for in its first frame
 * they made that frame a task of 50 ms. Asked for here, they are at hand when a step is drawn.
 */
export function FontWarmup() {
  const [shown, setShown] = useState(0);
  useEffect(() => (shown < GROUPS.length ? whenIdle(() => setShown(shown + 1)) : undefined), [shown]);
  return (
    <div aria-hidden="true" className="pointer-events-none invisible absolute left-0 top-0 h-px w-px overflow-hidden">
      {GROUPS.slice(0, shown).map((group) => WEIGHTS.map((weight) => <span key={`${group} ${weight}`} className={`${group} ${weight}`}>{SAMPLE}</span>))}
    </div>
  );
}
