const EMAIL = /[^\s<>"',;:()#]+@[^\s<>"',;:()#]+/g;
const LINK = /https?:\/\/\S+/g;

/** An error's name and message for logs and results: email addresses and links blanked out, at most 500 characters. */
export function errorSummary(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  return `${error.name}: ${error.message}`.replace(EMAIL, '<address>').replace(LINK, '<link>').slice(0, 500);
}
