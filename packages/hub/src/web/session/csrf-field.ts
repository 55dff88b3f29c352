// Apart from csrf.ts so that the form components can name the field without importing the
// middleware, which renders error pages with the components.
/** The hidden field of every form (`<CsrfField />` in components.tsx). */
export const CSRF_FIELD = '_csrf'
