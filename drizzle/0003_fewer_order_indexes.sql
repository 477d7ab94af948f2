DROP INDEX `orders_chain_type_status`;--> statement-breakpoint
DROP INDEX `orders_address`;--> statement-breakpoint
CREATE INDEX `orders_chain_type_expires` ON `orders` (`chain`,`type`,`expires_at`);