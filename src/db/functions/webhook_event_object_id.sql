-- The object an event is about, for events/list's objectId filter (issue 28): data.id, or the id its data names
-- (reversedId, saleInvoiceId, purchaseInvoiceId). Immutable, so an index can be built on it.
create or replace function webhook_event_object_id(data jsonb)
  returns uuid
  language sql immutable strict parallel safe
as $$
        select case when v ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then v::uuid end
          from (select coalesce(data ->> 'id', data ->> 'reversedId', data ->> 'saleInvoiceId', data ->> 'purchaseInvoiceId') as v) s
      $$;
