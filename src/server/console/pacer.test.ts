import { describe, expect, it } from 'vitest';
import { Pacer, PacerRefusal, RESET_MARGIN_MS, type PacedRequest, type PacerClock, type Slot } from './pacer';

class FakeClock implements PacerClock {
  t = 1_800_000_000_000;
  private timers: { at: number; run: () => void }[] = [];
  now = () => this.t;
  setTimer = (run: () => void, ms: number) => {
    const timer = { at: this.t + ms, run };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  };
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await flush();
      const next = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.t = next.at;
      next.run();
    }
    this.t = end;
    await flush();
  }
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

const file = (jobId: string | null): PacedRequest => ({ method: 'POST', path: '/api/v1/shipments/imports/file', jobId });
const poll = (jobId: string): PacedRequest => ({ method: 'GET', path: '/api/v1/shipments/imports/b-1', jobId });
const page: PacedRequest = { method: 'GET', path: '/api/v1/shipments?page=2', jobId: null };
const patch: PacedRequest = { method: 'PATCH', path: '/api/v1/shipments/id/s-1', jobId: null };

function answer(clock: FakeClock, status: number, limit: number, remaining: number, resetInMs: number, extra: Record<string, string> = {}) {
  return {
    status,
    headers: new Headers({
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(Math.ceil((clock.t + resetInMs) / 1000)),
      ...extra,
    }),
  };
}

/** Schedules and records the order slots are granted in. */
function track(pacer: Pacer, workspace = 'ws') {
  const granted: string[] = [];
  const slots = new Map<string, Slot>();
  const refused: string[] = [];
  const ask = (name: string, request: PacedRequest, signal?: AbortSignal) =>
    pacer.schedule(workspace, request, signal).then(
      (slot) => {
        granted.push(name);
        slots.set(name, slot);
        return slot;
      },
      (error: unknown) => {
        refused.push(name);
        return error;
      },
    );
  return { granted, slots, refused, ask };
}

describe('the pacer', () => {
  it('sends as many imports as the advertised limit at once, then holds the rest until the window the answers announce reopens', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock, advertised: { import_file: { limit: 4 } } });
    const { granted, slots, ask } = track(pacer);
    for (let i = 1; i <= 6; i++) void ask(`a${i}`, file('job-aaaa'));
    await clock.advance(0);
    expect(granted).toEqual(['a1', 'a2', 'a3', 'a4']);
    for (const [name, slot] of slots) slot.done(answer(clock, 202, 4, 4 - Number(name.slice(1)), 10_000));
    await clock.advance(9_000);
    expect(granted).toHaveLength(4);
    // The service rounds its reset up to a whole second; the pacer adds its margin after that.
    const reset = Math.ceil((clock.t + 1_000) / 1000) * 1000;
    await clock.advance(reset - clock.t + RESET_MARGIN_MS - 1);
    expect(granted).toHaveLength(4);
    await clock.advance(1);
    expect(granted).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6']);
    expect([...slots.values()].map((slot) => slot.held)).toEqual([false, false, false, false, true, true]);
  });

  it('probes a bucket it knows nothing of one request at a time, then sends what the answer leaves', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock });
    const { granted, slots, ask } = track(pacer);
    void ask('first', file('job-aaaa'));
    void ask('second', file('job-aaaa'));
    void ask('third', file('job-aaaa'));
    await clock.advance(0);
    expect(granted).toEqual(['first']);
    slots.get('first')!.done(answer(clock, 202, 20, 19, 60_000));
    await clock.advance(0);
    expect(granted).toEqual(['first', 'second', 'third']);
  });

  it('stops probing a route bucket once an accepted answer says nothing of it: its requests go together, until an answer names it', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock });
    const { granted, slots, ask } = track(pacer);
    for (const name of ['first', 'second', 'third', 'fourth', 'fifth']) void ask(name, file(`job-${name}`));
    await clock.advance(0);
    expect(granted).toEqual(['first']);
    // A gateway's 502 says nothing either way: the next request probes again.
    slots.get('first')!.done({ status: 502, headers: new Headers() });
    await clock.advance(0);
    expect(granted).toEqual(['first', 'second']);
    // Accepted, with no rate-limit headers: the service meters this route by 429s alone.
    slots.get('second')!.done({ status: 202, headers: new Headers() });
    await clock.advance(0);
    expect(granted).toEqual(['first', 'second', 'third', 'fourth', 'fifth']);
    // An answer that names the bucket is learnt, and paces it again.
    slots.get('third')!.done(answer(clock, 202, 3, 0, 10_000));
    void ask('sixth', file('job-sixth'));
    await clock.advance(0);
    expect(granted).not.toContain('sixth');
  });

  it('does not probe an import bucket one at a time while its answers carry the all-endpoints bucket’s headers (the more constrained)', async () => {
    const clock = new FakeClock();
    // A small all-endpoints bucket nearly spent: 12 left, of which jobs leave 5 to people.
    const pacer = new Pacer({ clock, advertised: { general: { limit: 100 } } });
    const { granted, slots, ask } = track(pacer);
    for (const name of ['a', 'b', 'c']) void ask(name, file(`job-${name}aaa`));
    await clock.advance(0);
    expect(granted).toEqual(['a']);
    slots.get('a')!.done(answer(clock, 202, 100, 12, 600_000));
    await clock.advance(0);
    expect(granted).toEqual(['a', 'b', 'c']);
  });

  it('shares an import bucket between jobs round robin, whoever queued more', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock, advertised: { import_file: { limit: 1 } } });
    const { granted, slots, ask } = track(pacer);
    void ask('big-1', file('job-big1'));
    await clock.advance(0);
    slots.get('big-1')!.done(answer(clock, 202, 1, 0, 5_000));
    for (let i = 2; i <= 5; i++) void ask(`big-${i}`, file('job-big1'));
    void ask('b-1', file('job-bbbb'));
    void ask('b-2', file('job-bbbb'));
    void ask('c-1', file('job-cccc'));
    for (let window = 0; window < 7; window++) {
      await clock.advance(6_000);
      const last = granted.at(-1)!;
      slots.get(last)!.done(answer(clock, 202, 1, 0, 5_000));
    }
    expect(granted).toEqual(['big-1', 'b-1', 'c-1', 'big-2', 'b-2', 'big-3', 'big-4', 'big-5']);
  });

  it('lets a page of shipments and a PATCH go at once while a job holds every import slot and its polls wait', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock, advertised: { import_file: { limit: 2 } } });
    const { granted, ask } = track(pacer);
    for (let i = 1; i <= 50; i++) void ask(`import-${i}`, file('job-big1'));
    void ask('page', page);
    void ask('patch', patch);
    await clock.advance(0);
    expect(granted).toEqual(['import-1', 'import-2', 'page', 'patch']);
  });

  it('keeps a reserve of the all-endpoints bucket for people: a job poll waits where a page goes', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock });
    const { granted, slots, ask } = track(pacer);
    void ask('page-1', page);
    await clock.advance(0);
    // 1,500 an hour: jobs leave 75 (5 %) to people.
    slots.get('page-1')!.done(answer(clock, 200, 1500, 75, 3_600_000));
    void ask('poll', poll('job-aaaa'));
    void ask('page-2', page);
    await clock.advance(0);
    expect(granted).toEqual(['page-1', 'page-2']);
  });

  it('holds the import bucket for the Retry-After of an import’s 429, and a page of shipments goes meanwhile', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock });
    const { granted, slots, ask } = track(pacer);
    void ask('import', file('job-aaaa'));
    await clock.advance(0);
    slots.get('import')!.done({ status: 429, headers: new Headers({ 'retry-after': '7' }) });
    void ask('next import', file('job-aaaa'));
    void ask('page', page);
    await clock.advance(0);
    expect(granted).toEqual(['import', 'page']);
    await clock.advance(6_999);
    expect(granted).toEqual(['import', 'page']);
    await clock.advance(1);
    expect(granted).toEqual(['import', 'page', 'next import']);
  });

  it('holds the whole workspace, people too, for a 429 that speaks of the all-endpoints bucket, and only that workspace', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock, advertised: { general: { limit: 1_500 }, import_file: { limit: 20 } } });
    const { granted, slots, ask } = track(pacer);
    const other = track(pacer, 'other-ws');
    void ask('import', file('job-aaaa'));
    await clock.advance(0);
    // The service sends its most constrained bucket's headers: here the hourly one, spent.
    slots.get('import')!.done(answer(clock, 429, 1_500, 0, 7_000, { 'retry-after': '7' }));
    void ask('page', page);
    void other.ask('elsewhere', page);
    await clock.advance(6_999);
    expect(granted).toEqual(['import']);
    expect(other.granted).toEqual(['elsewhere']);
    // The bucket the headers named reopens at its reset, with the pacer's margin.
    await clock.advance(201);
    expect(granted).toEqual(['import', 'page']);
  });

  it('holds a 429 for its Retry-After only, even where its bucket still had requests left until a later reset', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock });
    const { granted, slots, ask } = track(pacer);
    void ask('first', poll('job-aaaa'));
    await clock.advance(0);
    // A service having a bad second: its hourly bucket has 1,400 left, yet it answers 429, retry in 1 s.
    slots.get('first')!.done(answer(clock, 429, 1_500, 1_400, 3_600_000, { 'retry-after': '1' }));
    void ask('again', poll('job-aaaa'));
    await clock.advance(999);
    expect(granted).toEqual(['first']);
    await clock.advance(1);
    expect(granted).toEqual(['first', 'again']);
  });

  it('refuses a job’s request when the jobs’ part of the queue is full, saying when to try again', async () => {
    const clock = new FakeClock();
    // 3 may wait, one of them kept for people.
    const pacer = new Pacer({ clock, maxQueued: 3 });
    const { ask } = track(pacer);
    void ask('probe', file('job-aaaa'));
    void ask('held-1', file('job-aaaa'));
    void ask('held-2', file('job-aaaa'));
    await clock.advance(0);
    const refusal = await pacer.schedule('ws', file('job-aaaa')).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PacerRefusal);
    expect((refusal as PacerRefusal).message).toMatch(/already holds 2 requests of this workspace's jobs .* this one was not sent\. Try again in \d+ seconds\./);
    expect((refusal as PacerRefusal).retryAfterMs).toBeGreaterThanOrEqual(1000);
  });

  it('keeps part of the queue for people: jobs that fill theirs leave a page and a PATCH going and waiting', async () => {
    const clock = new FakeClock();
    // 10 may wait: jobs may fill 8 of them, people all 10.
    const pacer = new Pacer({ clock, maxQueued: 10, advertised: { import_file: { limit: 1 }, patch_id: { limit: 1 } } });
    const { granted, refused, ask } = track(pacer);
    for (let i = 1; i <= 12; i++) void ask(`import-${i}`, file('job-big1'));
    await clock.advance(0);
    expect(granted).toEqual(['import-1']);
    expect(refused).toEqual(['import-10', 'import-11', 'import-12']);
    void ask('page', page);
    void ask('patch-1', patch);
    void ask('patch-2', patch);
    void ask('patch-3', patch);
    await clock.advance(0);
    expect(granted).toEqual(['import-1', 'page', 'patch-1']);
    // Two PATCHes wait in the people's part; a job's request still finds the jobs' part full.
    void ask('import-13', file('job-big1'));
    await clock.advance(0);
    expect(refused).toEqual(['import-10', 'import-11', 'import-12', 'import-13']);
    expect(pacer.view('ws').queued).toEqual({ imports: 8, polls: 0, people: 2 });
    // The whole queue full: a person's request that must wait is refused too, one that can go is not.
    void ask('patch-4', patch);
    void ask('page-2', page);
    await clock.advance(0);
    expect(refused.at(-1)).toBe('patch-4');
    expect(granted.at(-1)).toBe('page-2');
  });

  it('makes room in a full jobs’ part for a job with nothing waiting, taking the newest request of the job that holds the most', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock, maxQueued: 10, advertised: { import_file: { limit: 1 } } });
    const { granted, slots, refused, ask } = track(pacer);
    for (let i = 1; i <= 12; i++) void ask(`big-${i}`, file('job-big1'));
    await clock.advance(0);
    void ask('quick', file('job-quick1'));
    await clock.advance(0);
    expect(refused).toEqual(['big-10', 'big-11', 'big-12', 'big-9']);
    slots.get('big-1')!.done(answer(clock, 202, 1, 0, 5_000));
    await clock.advance(6_000);
    expect(granted).toEqual(['big-1', 'quick']);
  });

  it('refuses at once a request whose bucket reopens later than it holds one, and one that waited that long', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock, maxWaitMs: 30_000 });
    const { granted, slots, refused, ask } = track(pacer);
    void ask('first', file('job-aaaa'));
    await clock.advance(0);
    slots.get('first')!.done(answer(clock, 202, 20, 0, 60_000));
    await clock.advance(0);
    void ask('too-far', file('job-aaaa'));
    await clock.advance(0);
    expect(refused).toEqual(['too-far']);

    const slow = new Pacer({ clock, maxWaitMs: 30_000 });
    const later = track(slow);
    void later.ask('probe', file('job-aaaa'));
    void later.ask('behind', file('job-aaaa'));
    await clock.advance(30_000);
    expect(later.granted).toEqual(['probe']);
    expect(later.refused).toEqual(['behind']);
    expect(granted).toEqual(['first']);
  });

  it('forgets a request whose caller went away before its turn', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock });
    const { granted, slots, refused, ask } = track(pacer);
    void ask('probe', file('job-aaaa'));
    const gone = new AbortController();
    void ask('gone', file('job-aaaa'), gone.signal);
    void ask('stays', file('job-bbbb'));
    await clock.advance(0);
    gone.abort(new Error('client closed'));
    await clock.advance(0);
    slots.get('probe')!.done(answer(clock, 202, 20, 10, 60_000));
    await clock.advance(0);
    expect(refused).toEqual(['gone']);
    expect(granted).toEqual(['probe', 'stays']);
  });

  it('stops counting a job as sending once its imports are all sent: waiting for results while it polls, nothing once finished', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock, advertised: { import_file: { limit: 1 } } });
    const { slots, ask } = track(pacer);
    void ask('a-last', file('job-aaaa'));
    void ask('b-1', file('job-bbbb'));
    void ask('c-poll', poll('job-cccc'));
    await clock.advance(0);
    slots.get('a-last')!.done(answer(clock, 202, 1, 0, 5_000));
    slots.get('c-poll')!.done(answer(clock, 200, 1_500, 1_400, 3_600_000));
    await clock.advance(1_000);
    // What the team history knows of each job: a has sent its last chunk, b (an import still waiting) says so too, c has finished.
    const progress = (jobId: string) => (jobId === 'job-cccc' ? 'finished' : 'sent');
    expect(pacer.view('ws', progress)).toMatchObject({ jobsSending: ['job-bbbb'], jobsWaitingForResults: ['job-aaaa'] });
    void ask('a-poll', poll('job-aaaa'));
    await clock.advance(0);
    slots.get('a-poll')!.done(answer(clock, 200, 1_500, 1_399, 3_600_000));
    const finished = () => 'finished' as const;
    await clock.advance(6_000);
    slots.get('b-1')!.done(answer(clock, 202, 1, 0, 5_000));
    expect(pacer.view('ws', finished)).toMatchObject({ jobsSending: [], jobsWaitingForResults: [] });
    // A job the history does not hold: sending while it imported lately, then polling only.
    expect(pacer.view('ws', () => null)).toMatchObject({ jobsSending: ['job-aaaa', 'job-bbbb'], jobsWaitingForResults: ['job-cccc'] });
    // 30 s after a's last import (its poll was later), and c's poll: b's import was 5 s after a's.
    await clock.advance(23_500);
    expect(pacer.view('ws', () => null)).toMatchObject({ jobsSending: ['job-bbbb'], jobsWaitingForResults: ['job-aaaa'] });
  });

  it('tells what it is doing: the jobs sending, what waits, when the next import may go', async () => {
    const clock = new FakeClock();
    const pacer = new Pacer({ clock, advertised: { import_file: { limit: 2 } } });
    const { slots, ask } = track(pacer);
    void ask('a', file('job-aaaa'));
    void ask('b', file('job-bbbb'));
    void ask('c', file('job-cccc'));
    void ask('poll', poll('job-dddd'));
    await clock.advance(0);
    slots.get('a')!.done(answer(clock, 202, 2, 1, 4_000));
    slots.get('b')!.done(answer(clock, 202, 2, 0, 4_000));
    await clock.advance(0);
    const view = pacer.view('ws');
    expect(view.jobsSending).toEqual(['job-aaaa', 'job-bbbb', 'job-cccc']);
    expect(view.queued).toEqual({ imports: 1, polls: 0, people: 0 });
    expect(view.nextImportSlotInMs).toBeGreaterThan(4_000);
    expect(view.nextImportSlotInMs).toBeLessThanOrEqual(5_000 + RESET_MARGIN_MS);
    expect(view.buckets.find((b) => b.name === 'import_file')).toMatchObject({ limit: 2, remaining: 0 });
    expect(pacer.view('another-ws').jobsSending).toEqual([]);
  });
});
