// A job's name, as History, the job page, the team history and notifications say it.
import type { ImportJob } from './import-job';

export function jobName(job: Pick<ImportJob, 'source'>): string {
  switch (job.source.kind) {
    case 'file':
      return job.source.fileName;
    case 'quick-add':
      return 'Quick add';
    case 'retry':
      return job.source.label;
  }
}
