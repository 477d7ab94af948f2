ALTER TABLE `chain_cursors` ADD `height_hash` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `chain_cursors` ADD `height_time` integer DEFAULT 0 NOT NULL;