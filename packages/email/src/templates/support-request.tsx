/** @jsxRuntime automatic @jsxImportSource react */
import { Text } from '@react-email/text';
import { Fragment } from 'react';
import { MailLayout, muted } from './layout';

export type SupportPrioridad = 'normal' | 'alta';
const PRIORIDAD: Record<SupportPrioridad, string> = { normal: 'normal', alta: 'alta' };

/** What both support mails share: the folio, its priority and the promised answer time, worded. */
export interface SupportTicket {
  folio: string;
  prioridad: SupportPrioridad;
  /** "lunes 30 de noviembre de 2026 a las 11:30 (hora de la Ciudad de México)" */
  respuestaAntesDe: string;
}

export interface SupportRequestProps extends SupportTicket {
  user: { id: string; email: string; plan: string };
  /** The profile the request is about, if the user named one. */
  about: { rfc: string; nombre: string } | null;
  profiles: { rfc: string; nombre: string }[];
  /** The user's latest failed calls, newest first. */
  failures: { requestId: string; status: number; code: string; at: string }[];
  asunto: string;
  mensaje: string;
}

/** To the support team (SUPPORT_EMAIL): who asks, on what plan, about what, and what failed lately. */
export function SupportRequest(p: SupportRequestProps) {
  return (
    <MailLayout preview={`${p.folio}: ${p.asunto}`}>
      <Text>
        Nueva solicitud de soporte {p.folio}, prioridad {PRIORIDAD[p.prioridad]}. Responder antes del{' '}
        {p.respuestaAntesDe}.
      </Text>
      <Text>
        Usuario: {p.user.email} (id {p.user.id}), plan {p.user.plan}.
      </Text>
      {p.about && (
        <Text>
          Sobre el perfil: {p.about.rfc} ({p.about.nombre})
        </Text>
      )}
      <Text>
        Perfiles: {p.profiles.length ? p.profiles.map((x) => `${x.rfc} (${x.nombre})`).join(', ') : 'ninguno'}
      </Text>
      <Text>Asunto: {p.asunto}</Text>
      <Text>
        {p.mensaje.split(/\r\n|\r|\n/).map((line, i) => (
          <Fragment key={i}>
            {i > 0 && <br />}
            {line}
          </Fragment>
        ))}
      </Text>
      <Text>Últimas solicitudes fallidas ({p.failures.length}):</Text>
      {p.failures.length ? (
        p.failures.map((f) => (
          <Text key={f.requestId + f.at} style={muted}>
            {f.at} · {f.status} {f.code} · X-Request-Id {f.requestId}
          </Text>
        ))
      ) : (
        <Text style={muted}>ninguna</Text>
      )}
    </MailLayout>
  );
}

/**
 * To the user: the folio and when to expect the answer. Their own subject and message stay out: an
 * account's address is not proof of who typed them, and the mail must not carry someone else's words.
 */
export function SupportAcknowledgement(p: SupportTicket) {
  return (
    <MailLayout preview={`Recibimos tu solicitud ${p.folio}`}>
      <Text>
        Recibimos tu solicitud de soporte. Su folio es {p.folio}; menciónalo si nos escribes sobre ella.
      </Text>
      <Text>Prioridad: {PRIORIDAD[p.prioridad]}.</Text>
      <Text>Te responderemos antes del {p.respuestaAntesDe}.</Text>
      <Text style={muted}>
        Atendemos de lunes a viernes de 9:00 a 18:00, hora de la Ciudad de México, excepto los días de
        descanso obligatorio.
      </Text>
    </MailLayout>
  );
}
