import { describe, expect, it } from 'vitest';
import { Observable } from '../api/observable';
import type { ImportJob } from './import-job';
import { notifyWhenServerJobsFinish } from './server-job-finish';

const job = (id: string, fields: Partial<ImportJob>) => ({ id, runsOn: 'console-server', finishedAt: null, notify: true, ...fields }) as ImportJob;

class Jobs extends Observable<{ jobs: readonly ImportJob[] }> {
  show(...jobs: ImportJob[]) {
    this.set({ jobs });
  }
}

describe('notifyWhenServerJobsFinish', () => {
  it('notifies once when a job the console’s server sends is seen finishing with notify on; not for the browser’s own, one without notify, or one first seen finished', () => {
    const jobs = new Jobs({ jobs: [] });
    const notified: string[] = [];
    notifyWhenServerJobsFinish(jobs, (finished) => notified.push(finished.id));

    jobs.show(job('a', {}), job('quiet', { notify: false }), job('mine', { runsOn: undefined }), job('old', { finishedAt: 1 }));
    expect(notified).toEqual([]);
    jobs.show(job('a', { finishedAt: 2 }), job('quiet', { notify: false, finishedAt: 2 }), job('mine', { runsOn: undefined, finishedAt: 2 }), job('old', { finishedAt: 1 }));
    expect(notified).toEqual(['a']);
    jobs.show(job('a', { finishedAt: 2 }));
    expect(notified).toEqual(['a']);
  });
});
