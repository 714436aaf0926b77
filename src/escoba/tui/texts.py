"""The terminal UI's own strings: message keys and their texts in en, de, es and it.

A language without a text for a key falls back to English.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from ..messages import LANGUAGES, lookup

__all__ = ["TEXTS", "UI_LANGUAGES", "t"]

UI_LANGUAGES: Final = LANGUAGES

TEXTS: Final[Mapping[str, Mapping[str, str]]] = {
    "you": {"en": "You", "de": "Du", "es": "Tú", "it": "Tu"},
    "seat": {
        "en": "Seat {seat}",
        "de": "Platz {seat}",
        "es": "Puesto {seat}",
        "it": "Posto {seat}",
    },
    "level.beginner": {
        "en": "beginner",
        "de": "Anfänger",
        "es": "principiante",
        "it": "principiante",
    },
    "level.easy": {"en": "easy", "de": "leicht", "es": "fácil", "it": "facile"},
    "level.medium": {"en": "medium", "de": "mittel", "es": "medio", "it": "medio"},
    "level.hard": {"en": "hard", "de": "schwer", "es": "difícil", "it": "difficile"},
    "level.expert": {"en": "expert", "de": "Experte", "es": "experto", "it": "esperto"},
    "level.master": {"en": "master", "de": "Meister", "es": "maestro", "it": "maestro"},
    "deck.french": {"en": "French", "de": "französisch", "es": "francesa", "it": "francesi"},
    "deck.spanish": {"en": "Spanish", "de": "spanisch", "es": "española", "it": "spagnole"},
    "deck.italian": {"en": "Italian", "de": "italienisch", "es": "italiana", "it": "italiane"},
    "seat_level": {
        "en": "Seat {seat} ({level})",
        "de": "Platz {seat} ({level})",
        "es": "Puesto {seat} ({level})",
        "it": "Posto {seat} ({level})",
    },
    "cards_held": {
        "en": "{name}: {n} cards",
        "de": "{name}: {n} Karten",
        "es": "{name}: {n} cartas",
        "it": "{name}: {n} carte",
    },
    "stock": {"en": "Stock: {n}", "de": "Stapel: {n}", "es": "Mazo: {n}", "it": "Mazzo: {n}"},
    "dealer": {
        "en": "Dealer: {name}",
        "de": "Geber: {name}",
        "es": "Reparte: {name}",
        "it": "Mazziere: {name}",
    },
    "captured": {
        "en": "{name}: {cards} taken, {sweeps} sweeps",
        "de": "{name}: {cards} genommen, {sweeps} Escobas",
        "es": "{name}: {cards} cogidas, {sweeps} escobas",
        "it": "{name}: {cards} prese, {sweeps} scope",
    },
    "hand_no": {"en": "Hand {n}", "de": "Runde {n}", "es": "Mano {n}", "it": "Mano {n}"},
    "totals": {
        "en": "Score (to {target})",
        "de": "Stand (bis {target})",
        "es": "Tanteo (a {target})",
        "it": "Punti (a {target})",
    },
    "your_turn": {"en": "Your turn", "de": "Du bist dran", "es": "Te toca", "it": "Tocca a te"},
    "their_turn": {
        "en": "{name} to play",
        "de": "{name} ist dran",
        "es": "Juega {name}",
        "it": "Gioca {name}",
    },
    "winner": {
        "en": "Match over: {name} won",
        "de": "Partie vorbei: {name} gewinnt",
        "es": "Partida terminada: gana {name}",
        "it": "Partita finita: vince {name}",
    },
    "table": {"en": "Table", "de": "Tisch", "es": "Mesa", "it": "Tavolo"},
    "empty": {"en": "(empty)", "de": "(leer)", "es": "(vacía)", "it": "(vuoto)"},
    "your_hand": {"en": "Your hand", "de": "Deine Karten", "es": "Tu mano", "it": "La tua mano"},
    "choose_set": {
        "en": "{card} can take more than one set: pick one (number or click, Esc to cancel)",
        "de": "{card} kann mehrere Sätze nehmen: wähle einen (Zahl oder Klick, Esc bricht ab)",
        "es": "{card} puede coger varias combinaciones: elige una (número o clic, Esc cancela)",
        "it": "{card} può prendere più combinazioni: scegline una (numero o clic, Esc annulla)",
    },
    "drop_option": {
        "en": "drop {card} on the table",
        "de": "{card} auf den Tisch legen",
        "es": "dejar {card} en la mesa",
        "it": "calare {card} sul tavolo",
    },
    "take_option": {
        "en": "take {cards}",
        "de": "nimm {cards}",
        "es": "coger {cards}",
        "it": "prendi {cards}",
    },
    "no_card": {
        "en": "There is no card {n} in your hand (you hold {count}).",
        "de": "Du hast keine Karte {n} (du hältst {count}).",
        "es": "No tienes carta {n} (tienes {count}).",
        "it": "Non hai la carta {n} (ne hai {count}).",
    },
    "no_set": {
        "en": "There is no choice {n}: pick 1 to {count}.",
        "de": "Es gibt keine Wahl {n}: wähle 1 bis {count}.",
        "es": "No hay opción {n}: elige de 1 a {count}.",
        "it": "Non c'è la scelta {n}: scegli da 1 a {count}.",
    },
    "not_your_turn": {
        "en": "Wait: it is not your turn.",
        "de": "Warte: du bist nicht dran.",
        "es": "Espera: no es tu turno.",
        "it": "Aspetta: non è il tuo turno.",
    },
    "illegal": {
        "en": "Not allowed: {reason}",
        "de": "Nicht erlaubt: {reason}",
        "es": "No permitido: {reason}",
        "it": "Non consentito: {reason}",
    },
    "must_take": {
        "en": "{card} cannot be played: a card that can take must take, and {card} takes nothing "
        "while another card of yours can.",
        "de": "{card} geht nicht: wer nehmen kann, muss nehmen, und {card} nimmt nichts, "
        "eine andere deiner Karten aber schon.",
        "es": "{card} no vale: quien puede coger debe coger, y {card} no coge nada "
        "pero otra carta tuya sí.",
        "it": "{card} non si può giocare: chi può prendere deve prendere, e {card} non prende "
        "nulla mentre un'altra tua carta sì.",
    },
    "match_over": {
        "en": "The match is over: press q to quit, s for the score pad.",
        "de": "Die Partie ist vorbei: q beendet, s zeigt den Spielzettel.",
        "es": "La partida ha terminado: q para salir, s para el tanteo.",
        "it": "La partita è finita: q per uscire, s per il segnapunti.",
    },
    "played_drop": {
        "en": "{name} drops {card}",
        "de": "{name} legt {card} ab",
        "es": "{name} deja {card}",
        "it": "{name} cala {card}",
    },
    "played_take": {
        "en": "{name} plays {card}, takes {cards}",
        "de": "{name} spielt {card}, nimmt {cards}",
        "es": "{name} juega {card}, coge {cards}",
        "it": "{name} gioca {card}, prende {cards}",
    },
    "played_drop_you": {
        "en": "{name} drop {card}",
        "de": "{name} legst {card} ab",
        "es": "{name} dejas {card}",
        "it": "{name} cali {card}",
    },
    "played_take_you": {
        "en": "{name} play {card}, take {cards}",
        "de": "{name} spielst {card}, nimmst {cards}",
        "es": "{name} juegas {card}, coges {cards}",
        "it": "{name} giochi {card}, prendi {cards}",
    },
    "sweep": {"en": " (sweep!)", "de": " (Escoba!)", "es": " (¡escoba!)", "it": " (scopa!)"},
    "deal": {
        "en": "Deal {round}",
        "de": "Austeilen {round}",
        "es": "Reparto {round}",
        "it": "Distribuzione {round}",
    },
    "initial_sweep": {
        "en": "{name} takes the first table for {n} sweep(s)",
        "de": "{name} nimmt den ersten Tisch: {n} Escoba(s)",
        "es": "{name} se lleva la mesa inicial: {n} escoba(s)",
        "it": "{name} prende il tavolo iniziale: {n} scopa/e",
    },
    "redeal": {
        "en": "Three kings on the table: dealt again",
        "de": "Drei Könige auf dem Tisch: neu gegeben",
        "es": "Tres reyes en la mesa: se reparte de nuevo",
        "it": "Tre re sul tavolo: si ridà",
    },
    "hint": {
        "en": "Hint: {move}. {why}",
        "de": "Tipp: {move}. {why}",
        "es": "Consejo: {move}. {why}",
        "it": "Consiglio: {move}. {why}",
    },
    "hint_wait": {
        "en": "Hints are for your turn.",
        "de": "Tipps gibt es, wenn du dran bist.",
        "es": "Los consejos son para tu turno.",
        "it": "I consigli sono per il tuo turno.",
    },
    "keys": {
        "en": "1-9 play/pick · s score pad · r rules · h hint · q quit",
        "de": "1-9 spielen/wählen · s Spielzettel · r Regeln · h Tipp · q Ende",
        "es": "1-9 jugar/elegir · s tanteo · r reglas · h consejo · q salir",
        "it": "1-9 gioca/scegli · s segnapunti · r regole · h consiglio · q esci",
    },
    "score_pad": {"en": "Score pad", "de": "Spielzettel", "es": "Tanteo", "it": "Segnapunti"},
    "no_hands": {
        "en": "No hand finished yet.",
        "de": "Noch keine Runde beendet.",
        "es": "Aún no ha terminado ninguna mano.",
        "it": "Nessuna mano ancora finita.",
    },
    "cat.cards": {"en": "Most cards", "de": "Meiste Karten", "es": "Más cartas", "it": "Carte"},
    "cat.coins": {"en": "Most coins", "de": "Meiste Karo", "es": "Más oros", "it": "Denari"},
    "cat.seven_of_coins": {
        "en": "Seven of coins",
        "de": "Karo-7",
        "es": "Siete de oros",
        "it": "Settebello",
    },
    "cat.sevens": {
        "en": "Sevens ({label})",
        "de": "Siebener ({label})",
        "es": "Sietes ({label})",
        "it": "Sette ({label})",
    },
    "cat.sevens_unnamed": {"en": "Sevens", "de": "Siebener", "es": "Sietes", "it": "Sette"},
    "cat.all_sevens": {
        "en": "All four sevens",
        "de": "Alle vier Siebener",
        "es": "Los cuatro sietes",
        "it": "Tutti i sette",
    },
    "cat.sweeps": {"en": "Sweeps", "de": "Escobas", "es": "Escobas", "it": "Scope"},
    "hand_points": {"en": "Hand", "de": "Runde", "es": "Mano", "it": "Mano"},
    "running": {"en": "Total", "de": "Gesamt", "es": "Total", "it": "Totale"},
    "review_title": {
        "en": "Your moves in hand {n} that cost points:",
        "de": "Deine Züge in Runde {n}, die Punkte gekostet haben:",
        "es": "Tus jugadas de la mano {n} que costaron puntos:",
        "it": "Le tue mosse della mano {n} che sono costate punti:",
    },
    "review_none": {
        "en": "Hand {n}: no costly moves.",
        "de": "Runde {n}: keine teuren Züge.",
        "es": "Mano {n}: ninguna jugada costosa.",
        "it": "Mano {n}: nessuna mossa costosa.",
    },
    "replay_status": {
        "en": "Replay · Hand {hand} · move {move} of {moves} · step {step}/{steps}",
        "de": "Wiederholung · Runde {hand} · Zug {move} von {moves} · Schritt {step}/{steps}",
        "es": "Repetición · Mano {hand} · jugada {move} de {moves} · paso {step}/{steps}",
        "it": "Replay · Mano {hand} · mossa {move} di {moves} · passo {step}/{steps}",
    },
    "replay_start": {
        "en": "The cards are dealt.",
        "de": "Die Karten sind ausgeteilt.",
        "es": "Se reparten las cartas.",
        "it": "Le carte sono distribuite.",
    },
    "replay_hand_end": {
        "en": "Hand {n} over: {points}",
        "de": "Runde {n} vorbei: {points}",
        "es": "Fin de la mano {n}: {points}",
        "it": "Fine della mano {n}: {points}",
    },
    "replay_keys": {
        "en": "→/n next · ←/p back · Home/End first/last · q quit",
        "de": "→/n weiter · ←/p zurück · Pos1/Ende Anfang/Ende · q Ende",
        "es": "→/n siguiente · ←/p atrás · Inicio/Fin primero/último · q salir",
        "it": "→/n avanti · ←/p indietro · Home/Fine inizio/fine · q esci",
    },
    "rules_title": {"en": "Rules", "de": "Regeln", "es": "Reglas", "it": "Regole"},
    "close": {
        "en": "Esc, Enter or the key again closes",
        "de": "Esc, Enter oder dieselbe Taste schließt",
        "es": "Esc, Intro o la misma tecla cierra",
        "it": "Esc, Invio o lo stesso tasto chiude",
    },
    "setup.title": {
        "en": "New match",
        "de": "Neues Spiel",
        "es": "Nueva partida",
        "it": "Nuova partita",
    },
    "setup.preset": {"en": "Rules", "de": "Regeln", "es": "Reglas", "it": "Regole"},
    "setup.target": {
        "en": "Target score",
        "de": "Zielpunkte",
        "es": "Puntos para ganar",
        "it": "Punti per vincere",
    },
    "setup.win_by": {
        "en": "Win by",
        "de": "Vorsprung",
        "es": "Ventaja",
        "it": "Scarto",
    },
    "setup.players": {"en": "Players", "de": "Spieler", "es": "Jugadores", "it": "Giocatori"},
    "setup.partnerships": {
        "en": "Partnerships",
        "de": "Partnerschaften",
        "es": "Por parejas",
        "it": "A coppie",
    },
    "setup.deck": {"en": "Deck", "de": "Kartenbild", "es": "Baraja", "it": "Mazzo"},
    "setup.language": {"en": "Language", "de": "Sprache", "es": "Idioma", "it": "Lingua"},
    "setup.play": {"en": "Play", "de": "Spielen", "es": "Jugar", "it": "Gioca"},
    "setup.cancel": {"en": "Cancel", "de": "Abbrechen", "es": "Cancelar", "it": "Annulla"},
    "setup.keys": {
        "en": "Tab/arrows move · Enter/Space choose · Esc or q cancels",
        "de": "Tab/Pfeile bewegen · Enter/Leertaste wählen · Esc oder q bricht ab",
        "es": "Tab/flechas mover · Intro/Espacio elegir · Esc o q cancela",
        "it": "Tab/frecce muovi · Invio/Spazio scegli · Esc o q annulla",
    },
    "setup.whole_number": {
        "en": "{name}: give a whole number",
        "de": "{name}: bitte eine ganze Zahl angeben",
        "es": "{name}: escribe un número entero",
        "it": "{name}: scrivi un numero intero",
    },
    "opt.forced_capture": {
        "en": "Forced capture",
        "de": "Schlagzwang",
        "es": "Captura obligatoria",
        "it": "Presa obbligatoria",
    },
    "opt.last_play_sweep_counts": {
        "en": "Last-card sweep counts",
        "de": "Escoba mit letzter Karte zählt",
        "es": "Escoba de la última carta cuenta",
        "it": "Scopa all'ultima carta vale",
    },
    "opt.initial_table_sweeps": {
        "en": "Sweeps on the first table",
        "de": "Escobas beim Auslegen",
        "es": "Escobas al repartir la mesa",
        "it": "Scope sulle carte in tavola",
    },
    "opt.kings_redeal": {
        "en": "Three kings: redeal",
        "de": "Drei Könige: neu geben",
        "es": "Tres reyes: se reparte otra vez",
        "it": "Tre re: si ridistribuisce",
    },
    "opt.primiera_needs_all_suits": {
        "en": "Primiera needs all suits",
        "de": "Primiera braucht alle Farben",
        "es": "Primera exige los cuatro palos",
        "it": "Primiera con tutti i semi",
    },
    "opt.all_coins_two": {
        "en": "All coins score 2",
        "de": "Alle Karo zählen 2",
        "es": "Todos los oros valen 2",
        "it": "Tutti i denari valgono 2",
    },
    "opt.big_wins": {
        "en": "Big wins",
        "de": "Große Siege",
        "es": "Grandes victorias",
        "it": "Grandi vittorie",
    },
}


def t(key: str, language: str = "en", **params: object) -> str:
    """The text of ``key`` in ``language`` (English where there is none), filled in."""
    return lookup(TEXTS, key, language, **params)
