-- Every cost the system incurred, one row per priced unit of work, for the admin
-- cost endpoints. Today: pipeline stage attempts. The chat adds its messages' cost
-- by replacing this view with one more `UNION ALL SELECT ... FROM <its table>`,
-- keeping these columns; the admin queries read only the view.
CREATE VIEW cost_events AS
  SELECT tenant_id,
         report_id,
         stage        AS kind,
         provider,
         model,
         cost_cents,
         started_at   AS occurred_at
    FROM stage_runs;
