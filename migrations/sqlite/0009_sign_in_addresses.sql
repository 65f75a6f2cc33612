-- Sign-in throttling per client address as well as per account name: the
-- address a failed sign-in came from ('' for failures recorded before this
-- migration, or when the server could not tell).
ALTER TABLE sign_in_failures ADD COLUMN address TEXT NOT NULL DEFAULT '';
CREATE INDEX sign_in_failures_address ON sign_in_failures (address, at);
