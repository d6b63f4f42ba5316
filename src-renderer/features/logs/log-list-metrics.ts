/** Every log row is this tall (px): the list only renders the rows in view, whatever their number. Keep in step with logs.css. */
export const ROW_HEIGHT = 24;
