import { html, type SafeHtml } from './html';

/** What a link page's form posts: the link's token and the page's anti-CSRF value, and its button. */
export interface ConfirmForm {
  readonly action: string;
  readonly token: string;
  readonly csrf: string;
  readonly button: string;
  /** The button's tone class (`neutral`); none for the page's main action. */
  readonly buttonClass?: string;
  /** More fields, between the hidden ones and the button (hidden fields, checkboxes). */
  readonly fields?: SafeHtml | readonly SafeHtml[];
}

/** The form of a link page: hidden `token` and `csrf`, any further fields, one submit button. */
export function confirmForm(form: ConfirmForm): SafeHtml {
  return html`<form method="post" action="${form.action}">
<input type="hidden" name="token" value="${form.token}">
<input type="hidden" name="csrf" value="${form.csrf}">
${
  form.fields === undefined
    ? ''
    : html`${form.fields}
`
}<button type="submit"${form.buttonClass === undefined ? '' : html` class="${form.buttonClass}"`}>${form.button}</button>
</form>`;
}
