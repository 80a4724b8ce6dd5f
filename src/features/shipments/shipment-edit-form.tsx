import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';
import { HttpError } from '../../api/api-error';
import type { ApiTarget } from '../../api/http-client';
import { shipmentPatchMutationOptions } from '../../api/shipment-patch';
import type { Shipment } from '../../contract/shipment';
import { shipmentEditableSchema } from '../../contract/shipment-editable';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { checkEdit, editValuesOf, NAME_MAX, type CustomFieldInput, type EditField, type EditProblem, type EditValues } from './shipment-edit';

/** A refused update as sentences: the service's message, its suggested fix when it sends one, the field it names. */
function serviceProblem(error: Error): { message: string; suggestedFix: string | null; field: EditField | null } {
  const suggested = (error as { suggestedFix?: unknown; suggested_fix?: unknown }).suggestedFix ?? (error as { suggested_fix?: unknown }).suggested_fix;
  const target = error instanceof HttpError ? error.target : null;
  const field = target === null ? null : target.startsWith('custom_fields.') ? (`cf_${target.slice('custom_fields.'.length)}` as const) : target;
  const known = field === 'name' || field === 'tags' || field === 'viewers' || field === 'assignees' || field?.startsWith('cf_');
  return { message: error.message, suggestedFix: typeof suggested === 'string' && suggested !== '' ? suggested : null, field: known ? (field as EditField) : null };
}

export function ShipmentEditForm({
  target,
  shipment,
  customFields,
  members,
}: {
  target: ApiTarget;
  shipment: Shipment;
  customFields: readonly CustomFieldInput[];
  members: ReadonlySet<string> | null;
}) {
  const queryClient = useQueryClient();
  const mutation = useMutation(shipmentPatchMutationOptions(target, queryClient));
  const editable = shipmentEditableSchema.parse(shipment);
  const [values, setValues] = useState<EditValues>(() => editValuesOf(editable, customFields));
  const [submitted, setSubmitted] = useState(false);
  const [nothingChanged, setNothingChanged] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const context = { customFields, members };
  // Problems show once the user has tried to save, then follow every keystroke.
  const check = checkEdit(shipment, editable, values, context);
  const shown = submitted ? check.problems : [];
  const errors = shown.filter((problem) => problem.level === 'error');
  const refused = mutation.error ? serviceProblem(mutation.error) : null;

  const change = (field: EditField, value: string) => {
    setNothingChanged(false);
    if (mutation.isError || mutation.isSuccess) mutation.reset();
    setValues((current) =>
      field.startsWith('cf_') ? { ...current, customFields: { ...current.customFields, [field]: value } } : { ...current, [field]: value },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    mutation.reset();
    if (check.problems.some((problem) => problem.level === 'error')) {
      // Focus the first field in error, so a keyboard user lands where the fix is.
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    if (!check.patch) {
      setNothingChanged(true);
      return;
    }
    mutation.mutate({ shipmentId: shipment.id, patch: check.patch });
  };

  const field = (name: EditField, label: string, hint: string) => (
    <FormField
      name={name}
      label={label}
      hint={hint}
      value={name.startsWith('cf_') ? (values.customFields[name as `cf_${string}`] ?? '') : values[name as keyof Omit<EditValues, 'customFields'>]}
      problems={shown.filter((problem) => problem.field === name)}
      serviceError={refused?.field === name ? refused.message : null}
      onChange={(value) => change(name, value)}
    />
  );

  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-label="Edit shipment" className="space-y-4">
      {field('name', 'Name', `Up to ${NAME_MAX} characters.`)}
      {field('tags', 'Tags', 'Separate tags with commas.')}
      {field('viewers', 'Viewers', 'E-mail addresses, separated by commas. Viewers can see the shipment.')}
      {field(
        'assignees',
        'Assignees',
        members && members.size > 0 ? `Workspace members, separated by commas: ${[...members].join(', ')}.` : 'E-mail addresses of workspace members, separated by commas.',
      )}
      {customFields.map((custom) => (
        <div key={custom.slug}>{field(`cf_${custom.slug}`, custom.name, custom.isDate ? 'A date, YYYY-MM-DD. Empty removes it.' : 'Empty removes it.')}</div>
      ))}

      {errors.length > 0 && (
        <Alert tone="error" title="Not saved">
          {errors.length === 1 ? 'One field needs a fix: ' : `${errors.length} fields need a fix: `}
          {errors.map((problem) => problem.message).join(' ')}
        </Alert>
      )}
      {refused && (
        <Alert tone="error" title="The service refused the update">
          <p>{refused.message}</p>
          {refused.suggestedFix && <p className="mt-1">Suggested fix: {refused.suggestedFix}</p>}
        </Alert>
      )}
      {nothingChanged && <Alert tone="info" title="Nothing to save">No field differs from the shipment as the service has it.</Alert>}
      {mutation.isSuccess && <Alert tone="success" title="Saved">The shipment is updated; the list shows the new values.</Alert>}

      <Button type="submit" disabled={mutation.isPending}>
        {mutation.isPending ? 'Saving…' : 'Save changes'}
      </Button>
    </form>
  );
}

function FormField({
  name,
  label,
  hint,
  value,
  problems,
  serviceError,
  onChange,
}: {
  name: EditField;
  label: string;
  hint: string;
  value: string;
  problems: EditProblem[];
  serviceError: string | null;
  onChange: (value: string) => void;
}) {
  const id = useId();
  const invalid = serviceError !== null || problems.some((problem) => problem.level === 'error');
  const describedBy = [`${id}-hint`, problems.length > 0 || serviceError ? `${id}-problems` : null].filter(Boolean).join(' ');
  const className = `mt-1 block w-full rounded-md border px-3 py-2 text-sm shadow-sm ${invalid ? 'border-red-500' : 'border-slate-300'}`;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <input id={id} name={name} value={value} aria-invalid={invalid} aria-describedby={describedBy} onChange={(e) => onChange(e.target.value)} className={className} />
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
        {hint}
      </p>
      {(problems.length > 0 || serviceError) && (
        <ul id={`${id}-problems`} className="mt-1 space-y-0.5 text-xs">
          {problems.map((problem) => (
            <li key={problem.message} className={problem.level === 'error' ? 'text-red-800' : 'text-amber-900'}>
              <span className="font-semibold">{problem.level === 'error' ? 'Error: ' : 'Warning: '}</span>
              {problem.message}
            </li>
          ))}
          {serviceError && (
            <li className="text-red-800">
              <span className="font-semibold">Refused: </span>
              {serviceError}
            </li>
          )}
        </ul>
      )}
    </div>
  );
}
