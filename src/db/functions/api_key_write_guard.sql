-- Every write reads its key again as its transaction begins (issue 7, defect 8): the key's advisory lock is taken
-- shared until commit, and api-keys/revoke takes it exclusively, so a revocation answers only once the writes already
-- past the check have committed: after its 200, no write of that key commits. A function, so that the read runs after
-- the lock is granted, with a snapshot that sees a revocation committed during the wait, in one round trip.
create or replace function api_key_write_guard(p_key_id uuid)
  returns boolean
  language plpgsql volatile
as $$
    begin
      perform pg_advisory_xact_lock_shared(7303, hashtext(p_key_id::text));
      return exists (select 1 from api_keys where id = p_key_id and revoked_at is null);
    end $$;
