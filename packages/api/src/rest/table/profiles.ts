import type { RestOptions, RouteEntry } from './entry';

const tags = ['profiles'];
// The contract answers profile input errors with 422; an invalid RFC is a 400 from the service.
const rest: RestOptions = { inputErrorStatus: 422 };

/** The REST routes of taxpayer profiles. */
export const profilesRoutes: RouteEntry[] = [
  {
    method: 'GET',
    path: '/profiles',
    procedure: 'profiles.list',
    docs: {
      tags,
      summary: 'Your profiles',
      description: 'Every taxpayer profile of the caller, frozen ones included (readable, not writable).',
    },
    errors: [401, 500],
  },
  {
    method: 'GET',
    path: '/profiles/{profileId}',
    procedure: 'profiles.get',
    docs: {
      tags,
      summary: 'One profile',
      description: 'One profile of the caller: RFC, person type, fiscal regimes and validation flags.',
    },
    errors: [401, 403, 404, 500],
  },
  {
    method: 'POST',
    path: '/profiles',
    procedure: 'profiles.create',
    docs: {
      tags,
      summary: 'Create a taxpayer profile',
      description:
        "Adds a taxpayer (one RFC) checked by the RFC rules (pattern, real date, no generic RFC, length by person type) with regimes from c_RegimenFiscal. Past the plan's profile limit it answers 403; an RFC the caller already has, 409.",
    },
    errors: [400, 401, 403, 409, 422, 500],
    rest: { ...rest, successStatus: 201 },
  },
  {
    method: 'PUT',
    path: '/profiles/{profileId}',
    procedure: 'profiles.update',
    docs: {
      tags,
      summary: 'Update the supplied fields of a profile',
      description:
        'Changes only the fields sent; validation flags merge into the current ones. A frozen profile answers 403. ' +
        'The RFC of a profile holding CFDI cannot change (409 `rfc_locked`): create a new profile for the other RFC.',
    },
    errors: [400, 401, 403, 404, 409, 422, 500],
    rest,
  },
  {
    method: 'DELETE',
    path: '/profiles/{profileId}',
    procedure: 'profiles.delete',
    docs: {
      tags,
      summary: 'Delete a profile and everything filed under it',
      description: 'Deletes the profile with its invoices, expenses and periods. This cannot be undone.',
    },
    errors: [401, 403, 404, 500],
  },
  {
    method: 'PUT',
    path: '/profiles/{profileId}/iva-proporcion-5b',
    procedure: 'profiles.setIvaProporcion5b',
    docs: {
      tags,
      summary: "Fix the previous year's IVA proportion for a year (LIVA 5-B)",
      description:
        "The monthly reports of `año` credit IVA of expenses used for taxed and exempt acts at this percentage (2 decimals) instead of each month's own proportion (LIVA 5-V). By law the choice binds the taxpayer for 60 months. A frozen profile answers 403.",
    },
    errors: [400, 401, 403, 404, 500],
  },
  {
    method: 'PUT',
    path: '/profiles/{profileId}/pagos-provisionales/{anio}/{mes}',
    procedure: 'profiles.setPagoProvisional',
    docs: {
      tags,
      summary: 'Record the ISR actually paid for a RESICO month (LISR 113-E)',
      description:
        "The annual RESICO computation (LISR 113-F, `resico_anual` of the annual report) subtracts this amount for the month instead of the month's computed `isr_a_pagar`. A frozen profile answers 403.",
    },
    errors: [400, 401, 403, 404, 500],
  },
];
