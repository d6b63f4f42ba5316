/**
 * Migration 021 (issue #38, instructions cost what they are worth): a new server's instructions start
 * off — a hostile server's "ignore all previous instructions" must not reach the model the moment it is
 * added. Servers configured before keep their choice: each one without a row gets an explicit "on",
 * as the old default was; from now on a missing row means off.
 */
export default `
INSERT INTO server_instructions_prefs (server_id, send)
  SELECT id, 1 FROM servers WHERE id NOT IN (SELECT server_id FROM server_instructions_prefs);
`;
