-- A number series only moves forward: next_number is never lowered, so a number once given is never given again.
create or replace function number_series_never_lowered()
  returns trigger
  language plpgsql volatile
as $$
    begin
      if new.next_number < old.next_number then
        raise exception 'number series % cannot be lowered from % to %', old.id, old.next_number, new.next_number
          using errcode = 'check_violation', constraint = 'number_series_never_lowered';
      end if;
      return new;
    end $$;
