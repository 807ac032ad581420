-- A sales document's e-mail send (table sale_invoice_sends, issue 25) keeps what was asked: recipients, copy,
-- subject, message, attachments, the issuer, the document and who asked never change after the request, and the outcome moves
-- forward only (queued -> sent or failed; a sent or failed send stays as it is, apart from nothing). The worker writes
-- the outcome columns (attempts, last_error, status, sent_at, failed_at); a send is never deleted (the record of what
-- the buyer was sent).
create or replace function sale_invoice_sends_keep_request()
  returns trigger
  language plpgsql
as $$
    begin
      if tg_op = 'DELETE' then
        raise exception 'a sale invoice send is never deleted' using errcode = 'P0001';
      end if;
      if (new.company_id, new.id, new.invoice_id, new.recipients, new.cc, new.subject, new.message, new.attach, new.issuer, new.key_id, new.created_at)
           is distinct from
         (old.company_id, old.id, old.invoice_id, old.recipients, old.cc, old.subject, old.message, old.attach, old.issuer, old.key_id, old.created_at) then
        raise exception 'a sale invoice send keeps what was asked' using errcode = 'P0001';
      end if;
      if old.status <> 'queued' and new is distinct from old then
        raise exception 'a sale invoice send that is % does not change', old.status using errcode = 'P0001';
      end if;
      return new;
    end
    $$;
