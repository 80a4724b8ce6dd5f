// The name a person types at Connect, kept on this device (never sent to the service): the team
// history shows it beside the jobs they send. Behind a single-sign-on proxy the server's header
// (CONSOLE_USER_HEADER) names them instead.
const STORAGE_KEY = 'import-console.your-name';

export function getYourName(): string | null {
  if (typeof localStorage === 'undefined') return null;
  const name = localStorage.getItem(STORAGE_KEY)?.trim();
  return name ? name : null;
}

export function saveYourName(name: string): void {
  const trimmed = name.trim().slice(0, 100);
  if (trimmed === '') localStorage.removeItem(STORAGE_KEY);
  else localStorage.setItem(STORAGE_KEY, trimmed);
}
