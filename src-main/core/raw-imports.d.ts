/** Vite (and vitest) inline `?raw` imports as strings; the SQL migrations use this. */
declare module '*?raw' {
  const text: string;
  export default text;
}
