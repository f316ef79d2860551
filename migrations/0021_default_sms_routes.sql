-- Hand-written (issue 43, docs/decisions/064): the default sms_routes now list every upstream behind each provider
-- (schema/settings.ts; one without a key is passed over), so HeroSMS and Grizzly SMS serve as fallbacks as soon as their
-- keys are set. The seed never overwrites a setting, so an install still holding the old default (each provider's own
-- upstream alone, never changed by an operator) is moved to the new one here; routes an operator wrote stay as they are.
UPDATE settings
SET value = '{"Swift":{"upstreams":["daisysms","herosms","grizzly"]},"Dynamic":{"upstreams":["smsman","herosms","grizzly"]}}'
WHERE key = 'sms_routes' AND json_valid(value) AND json(value) = json('{"Swift":{"upstreams":["daisysms"]},"Dynamic":{"upstreams":["smsman"]}}');
