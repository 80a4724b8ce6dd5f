/** A code of the service in words: `not_found` → "not found", `bill_of_lading` → "bill of lading". */
export const humanize = (value: string): string => value.replace(/_/g, ' ');
