/** An email address as the desk compares it: trimmed, lower-cased. */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Whether `email` receives `account`'s mail (is one of its recipients). */
export function receives(account: { readonly emails: readonly string[] }, email: string): boolean {
  const wanted = normalEmail(email);
  return account.emails.some((e) => normalEmail(e) === wanted);
}
