import { isRequestProblem, requestProblemPage, type ProblemWording, type RequestProblemView } from './commonPages';
import type { PageContent } from './pageLayout';
import { renderView, type RenderedPage } from './renderedPage';

/** A link page's views other than the request problems every page answers alike. */
export type OwnView<V> = Exclude<V, RequestProblemView>;

/**
 * The renderer of a link page's views: a request problem in the page's `wording`, any other view
 * by the page's `content`, each with its status from `statuses` (`renderView`) and the extra
 * `headers` of its own. `forms` is what the page's forms post to, handed to `content`.
 */
export function linkPageRenderer<V extends { readonly kind: string }, F>(
  statuses: Readonly<Record<V['kind'], number>>,
  wording: ProblemWording,
  content: (view: OwnView<V>, forms: F) => PageContent,
  headers: (view: V) => Record<string, string> = () => ({}),
): (view: V, forms: F) => RenderedPage {
  return (view, forms) =>
    renderView(view.kind, statuses, isRequestProblem(view) ? requestProblemPage(view, wording) : content(view as OwnView<V>, forms), headers(view));
}
