-- An R*Tree over ingress intervals [from, to) in resourceVersions, so "intervals overlapping a
-- window" is an index search whatever the size of the history before or after the window.
-- Kept in step with ingress_intervals by triggers (open intervals reach 1e30). The rtree stores
-- 32-bit floats rounded outwards: a superset; queries re-check the exact columns.
CREATE VIRTUAL TABLE ingress_interval_spans USING rtree(id, from_rv, to_rv);
--> statement-breakpoint
INSERT INTO ingress_interval_spans (id, from_rv, to_rv)
  SELECT id, from_resource_version, coalesce(to_resource_version, 1e30) FROM ingress_intervals;
--> statement-breakpoint
CREATE TRIGGER ingress_interval_spans_insert AFTER INSERT ON ingress_intervals
BEGIN
  INSERT INTO ingress_interval_spans (id, from_rv, to_rv) VALUES (NEW.id, NEW.from_resource_version, coalesce(NEW.to_resource_version, 1e30));
END;
--> statement-breakpoint
CREATE TRIGGER ingress_interval_spans_update AFTER UPDATE OF from_resource_version, to_resource_version ON ingress_intervals
BEGIN
  UPDATE ingress_interval_spans SET from_rv = NEW.from_resource_version, to_rv = coalesce(NEW.to_resource_version, 1e30) WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER ingress_interval_spans_delete AFTER DELETE ON ingress_intervals
BEGIN
  DELETE FROM ingress_interval_spans WHERE id = OLD.id;
END;
