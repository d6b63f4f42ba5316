import { configure } from '@testing-library/react';

/**
 * How long `findBy…` and `waitFor` wait for a condition before failing. Testing Library's default,
 * one second, is shorter than a lazily loaded dialog (the palette) can take to appear while a
 * two-core box also runs the host's tests; a condition that holds returns as soon as it does, so a
 * longer limit costs nothing but the time a real failure takes to be reported.
 */
configure({ asyncUtilTimeout: 10_000 });
