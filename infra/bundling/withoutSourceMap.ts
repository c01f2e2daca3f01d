/**
 * Stands in for the `source-map` package in the Lambda bundles (`LAMBDA_ALIASES`). Handlebars
 * loads it only to attach source maps to the templates it compiles, which the renderer never
 * asks for; when the package has no `SourceNode`, Handlebars uses its built-in plain code
 * generator, which yields the same compiled templates. ~26 KB less in the mailer bundles.
 */
export {};
