// Row numbers in the results, as the importer names them: "Line N" of a text file, "Row N" of a
// sheet (jobs/job-numbering.ts); the service's own numbers in its messages are explained by
// spreadsheet/row-numbering.ts, as on the job page.
export { jobNumbering } from '../../jobs/job-numbering';
