"""Message keys and their texts in each language.

Code that explains something to a person (the coach, later the terminal and web games)
returns a :class:`Message`, a key with parameters; the text is made only when shown, in the
reader's language. A language without a text for a key falls back to English.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from .errors import EscobaError

__all__ = ["LANGUAGES", "MESSAGES", "Message", "text"]

LANGUAGES: Final = ("en", "de", "es", "it")

MESSAGES: Final[Mapping[str, Mapping[str, str]]] = {
    "coach.best": {
        "en": "The best move here.",
        "de": "Der beste Zug hier.",
    },
    "coach.close_to_best": {
        "en": "As good as the best move, give or take {points} points.",
        "de": "So gut wie der beste Zug, bis auf {points} Punkte.",
    },
    "coach.costs_points": {
        "en": "Costs about {points} points against {best}.",
        "de": "Kostet etwa {points} Punkte gegenüber {best}.",
    },
    "coach.sweeps": {
        "en": "Sweeps the table: a point of its own.",
        "de": "Räumt den Tisch ab: ein eigener Punkt.",
    },
    "coach.takes_seven_of_coins": {
        "en": "Takes the 7 of coins, a point by itself.",
        "de": "Holt die Karo-7, allein schon einen Punkt.",
    },
    "coach.takes_a_seven": {
        "en": "Takes a seven, which counts for the sevens.",
        "de": "Holt eine Sieben, die für die Siebenen zählt.",
    },
    "coach.takes_sevens": {
        "en": "Takes {count} sevens, which count for the sevens.",
        "de": "Holt {count} Siebenen, die für die Siebenen zählen.",
    },
    "coach.takes_coins": {
        "en": "Takes {count} coins.",
        "de": "Holt {count} Karo.",
    },
    "coach.takes_cards": {
        "en": "Takes {count} cards.",
        "de": "Nimmt {count} Karten.",
    },
    "coach.leaves_sweep": {
        "en": "Leaves {total} on the table, which any {value} sweeps.",
        "de": "Lässt {total} auf dem Tisch liegen, das jede {value} abräumt.",
    },
    "coach.leaves_match_sweep": {
        "en": "Leaves a table that a single {value} sweeps.",
        "de": "Lässt einen Tisch liegen, den eine einzelne {value} abräumt.",
    },
    "coach.gives_seven_of_coins": {
        "en": "Leaves the 7 of coins where the next player can take it.",
        "de": "Lässt die Karo-7 liegen, wo der Nächste sie nehmen kann.",
    },
    "coach.high_card_on_empty_table": {
        "en": "A high card onto an empty table invites a sweep.",
        "de": "Eine hohe Karte auf den leeren Tisch lädt zur Escoba ein.",
    },
    "coach.drops": {
        "en": "Takes nothing: the card stays on the table.",
        "de": "Sticht nichts: die Karte bleibt auf dem Tisch liegen.",
    },
    # -- the plain-text terminal game (escoba play --plain) and escoba replay
    "play.header": {
        "en": "A match of {rules}, {players} players, seed {seed}. You are seat {seat}.",
        "de": "Eine Partie {rules}, {players} Spieler, Startwert {seed}. Du bist Platz {seat}.",
        "es": "Una partida de {rules}, {players} jugadores, semilla {seed}. Eres asiento {seat}.",
        "it": "Una partita di {rules}, {players} giocatori, seme {seed}. Sei il posto {seat}.",
    },
    "play.opponent": {
        "en": "Seat {seat}: computer, {level}.",
        "de": "Platz {seat}: Computer, {level}.",
        "es": "Asiento {seat}: ordenador, {level}.",
        "it": "Posto {seat}: computer, {level}.",
    },
    "play.partnerships": {
        "en": "Partnerships: seats 0 and 2 against seats 1 and 3.",
        "de": "Paare: Platz 0 und 2 gegen Platz 1 und 3.",
        "es": "Por parejas: asientos 0 y 2 contra asientos 1 y 3.",
        "it": "A coppie: posti 0 e 2 contro posti 1 e 3.",
    },
    "play.target": {
        "en": "The first side to {target} points wins.",
        "de": "Wer zuerst {target} Punkte hat, gewinnt.",
        "es": "Gana el primer bando que llegue a {target} puntos.",
        "it": "Vince la prima squadra che arriva a {target} punti.",
    },
    "play.resumed": {
        "en": "Continuing the saved match.",
        "de": "Die gespeicherte Partie geht weiter.",
        "es": "Continúa la partida guardada.",
        "it": "Riprende la partita salvata.",
    },
    "play.you": {"en": "you", "de": "du", "es": "tú", "it": "tu"},
    "play.seat": {
        "en": "seat {seat}",
        "de": "Platz {seat}",
        "es": "asiento {seat}",
        "it": "posto {seat}",
    },
    "play.you_and_partner": {
        "en": "you and seat {seat}",
        "de": "du und Platz {seat}",
        "es": "tú y el asiento {seat}",
        "it": "tu e il posto {seat}",
    },
    "play.seats": {
        "en": "seats {first} and {second}",
        "de": "Platz {first} und {second}",
        "es": "asientos {first} y {second}",
        "it": "posti {first} e {second}",
    },
    "play.hand": {
        "en": "Hand {number}. Dealer: {dealer}.",
        "de": "Runde {number}. Geber: {dealer}.",
        "es": "Mano {number}. Reparte: {dealer}.",
        "it": "Mano {number}. Mazziere: {dealer}.",
    },
    "play.scores": {
        "en": "Match points: {scores}.",
        "de": "Punktestand: {scores}.",
        "es": "Puntos de la partida: {scores}.",
        "it": "Punti della partita: {scores}.",
    },
    "play.score_of": {"en": "{side} {points}", "de": "{side} {points}"},
    "play.table": {
        "en": "Table: {cards}.",
        "de": "Tisch: {cards}.",
        "es": "Mesa: {cards}.",
        "it": "Tavolo: {cards}.",
    },
    "play.nothing": {"en": "empty", "de": "leer", "es": "vacía", "it": "vuoto"},
    "play.your_hand": {
        "en": "Your hand: {cards}.",
        "de": "Deine Hand: {cards}.",
        "es": "Tu mano: {cards}.",
        "it": "La tua mano: {cards}.",
    },
    "play.hand_size": {
        "en": "Cards in the hand of {who}: {count}.",
        "de": "Karten auf der Hand von {who}: {count}.",
        "es": "Cartas en la mano de {who}: {count}.",
        "it": "Carte in mano a {who}: {count}.",
    },
    "play.stock": {
        "en": "Cards left to deal: {count}.",
        "de": "Noch zu geben: {count} Karten.",
        "es": "Quedan por repartir: {count} cartas.",
        "it": "Restano da distribuire: {count} carte.",
    },
    "play.captured": {
        "en": "{side}: {count} cards captured, sweeps: {sweeps}.",
        "de": "{side}: {count} Karten gestochen, Abräumer: {sweeps}.",
        "es": "{side}: {count} cartas capturadas, escobas: {sweeps}.",
        "it": "{side}: {count} carte prese, scope: {sweeps}.",
    },
    "play.last_moves": {
        "en": "Last moves:",
        "de": "Letzte Züge:",
        "es": "Últimas jugadas:",
        "it": "Ultime giocate:",
    },
    "play.your_moves": {
        "en": "Your moves:",
        "de": "Deine Züge:",
        "es": "Tus jugadas:",
        "it": "Le tue giocate:",
    },
    "play.prompt": {
        "en": "Your move, a number from 1 to {count}:",
        "de": "Dein Zug, eine Zahl von 1 bis {count}:",
        "es": "Tu jugada, un número del 1 al {count}:",
        "it": "La tua giocata, un numero da 1 a {count}:",
    },
    "play.not_a_number": {
        "en": "{text!r} is not a number. Type a number from 1 to {count}.",
        "de": "{text!r} ist keine Zahl. Gib eine Zahl von 1 bis {count} ein.",
        "es": "{text!r} no es un número. Escribe un número del 1 al {count}.",
        "it": "{text!r} non è un numero. Scrivi un numero da 1 a {count}.",
    },
    "play.out_of_range": {
        "en": "There is no move {number}. Type a number from 1 to {count}.",
        "de": "Es gibt keinen Zug {number}. Gib eine Zahl von 1 bis {count} ein.",
        "es": "No hay jugada {number}. Escribe un número del 1 al {count}.",
        "it": "Non c'è la giocata {number}. Scrivi un numero da 1 a {count}.",
    },
    "play.take": {
        "en": "{card} taking {cards}",
        "de": "{card}, Stich: {cards}",
        "es": "{card}, captura: {cards}",
        "it": "{card}, presa: {cards}",
    },
    "play.drop": {
        "en": "{card}, taking nothing",
        "de": "{card}, kein Stich",
        "es": "{card}, sin captura",
        "it": "{card}, nessuna presa",
    },
    "play.sweep": {"en": ", sweep", "de": ", abgeräumt", "es": ", escoba", "it": ", scopa"},
    "play.you_play": {
        "en": "You play {move}.",
        "de": "Du spielst {move}.",
        "es": "Juegas {move}.",
        "it": "Giochi {move}.",
    },
    "play.computer_plays": {
        "en": "{who} ({level}) plays {move}.",
        "de": "{who} ({level}) spielt {move}.",
        "es": "{who} ({level}) juega {move}.",
        "it": "{who} ({level}) gioca {move}.",
    },
    "play.seat_plays": {
        "en": "{who} plays {move}.",
        "de": "{who} spielt {move}.",
        "es": "{who} juega {move}.",
        "it": "{who} gioca {move}.",
    },
    "play.initial_sweep": {
        "en": "The table ({cards}) makes {total}: the dealer, {who}, takes it. Sweeps: {sweeps}.",
        "de": "Der Tisch ({cards}) ergibt {total}: Geber {who} nimmt ihn. Abräumer: {sweeps}.",
    },
    "play.redeal": {
        "en": "Three or more kings on the table ({cards}): the cards are dealt again.",
        "de": "Drei oder mehr Könige auf dem Tisch ({cards}): es wird neu gegeben.",
    },
    "play.leftovers": {
        "en": "{who} captured last and takes the cards left on the table: {cards}.",
        "de": "{who} hat zuletzt gestochen und nimmt die Karten vom Tisch: {cards}.",
    },
    "play.you_leftovers": {
        "en": "You captured last and take the cards left on the table: {cards}.",
        "de": "Du hast zuletzt gestochen und nimmst die Karten vom Tisch: {cards}.",
    },
    "play.hand_over": {
        "en": "Hand {number} is over.",
        "de": "Runde {number} ist vorbei.",
        "es": "Se acabó la mano {number}.",
        "it": "La mano {number} è finita.",
    },
    "play.pad_title": {
        "en": "Score pad, hand {number}:",
        "de": "Punkte der Runde {number}:",
        "es": "Puntos de la mano {number}:",
        "it": "Punti della mano {number}:",
    },
    "play.pad.cards": {"en": "most cards", "de": "meiste Karten", "es": "cartas", "it": "carte"},
    "play.pad.coins": {"en": "most coins", "de": "meiste Karo", "es": "oros", "it": "denari"},
    "play.pad.seven_of_coins": {
        "en": "seven of coins",
        "de": "Karo-7",
        "es": "siete de oros",
        "it": "settebello",
    },
    "play.pad.sevens": {"en": "sevens", "de": "Siebenen", "es": "setenta", "it": "primiera"},
    "play.pad.all_sevens": {
        "en": "all four sevens",
        "de": "alle vier Siebenen",
        "es": "los cuatro sietes",
        "it": "i quattro sette",
    },
    "play.pad.sweeps": {"en": "sweeps", "de": "Abräumer", "es": "escobas", "it": "scope"},
    "play.pad.hand": {
        "en": "this hand",
        "de": "diese Runde",
        "es": "esta mano",
        "it": "questa mano",
    },
    "play.pad.total": {
        "en": "match total",
        "de": "Gesamtstand",
        "es": "total",
        "it": "totale",
    },
    "play.you_win": {
        "en": "You win the match! Final score: {scores}.",
        "de": "Du gewinnst die Partie! Endstand: {scores}.",
        "es": "¡Ganas la partida! Resultado final: {scores}.",
        "it": "Hai vinto la partita! Punteggio finale: {scores}.",
    },
    "play.you_lose": {
        "en": "You lose the match: {winner} wins. Final score: {scores}.",
        "de": "Du verlierst die Partie: {winner} gewinnt. Endstand: {scores}.",
        "es": "Pierdes la partida: gana {winner}. Resultado final: {scores}.",
        "it": "Hai perso la partita: vince {winner}. Punteggio finale: {scores}.",
    },
    "play.winner": {
        "en": "The match is over: {winner} wins. Final score: {scores}.",
        "de": "Die Partie ist vorbei: {winner} gewinnt. Endstand: {scores}.",
    },
    "play.saved": {
        "en": "The match is saved in {path}. Continue it with: escoba play --resume",
        "de": "Die Partie ist in {path} gespeichert. Weiter geht es mit: escoba play --resume",
        "es": "La partida está guardada en {path}. Continúala con: escoba play --resume",
        "it": "La partita è salvata in {path}. Riprendila con: escoba play --resume",
    },
    "play.kept": {
        "en": "The match is kept in {path}; see it again with: escoba replay FILE",
        "de": "Die Partie liegt in {path}; noch einmal ansehen mit: escoba replay DATEI",
    },
    "replay.title": {
        "en": "Replay of a match of {rules}, {players} players, seed {seed}.",
        "de": "Wiedergabe einer Partie {rules}, {players} Spieler, Startwert {seed}.",
    },
    "replay.hands": {
        "en": "Hands dealt: {hands}.",
        "de": "Ausgeteilte Hände: {hands}.",
    },
    "replay.table": {
        "en": "Table: {cards}.",
        "de": "Tisch: {cards}.",
    },
    "replay.unfinished": {
        "en": "The hand was not finished.",
        "de": "Die Runde wurde nicht zu Ende gespielt.",
    },
    "replay.match_unfinished": {
        "en": "The match was not finished. Score: {scores}.",
        "de": "Die Partie wurde nicht beendet. Stand: {scores}.",
    },
}
"""Texts by key, then by language."""


@dataclass(frozen=True, slots=True)
class Message:
    """A message key and its parameters; ``text(language)`` makes the sentence."""

    key: str
    params: Mapping[str, object] = field(default_factory=dict)

    def text(self, language: str = "en") -> str:
        return text(self.key, language, **self.params)


def text(key: str, language: str = "en", **params: object) -> str:
    """The text of a message in a language (English where that language has none)."""
    texts = MESSAGES.get(key)
    if texts is None:
        raise EscobaError(f"unknown message key {key!r}")
    if language not in LANGUAGES:
        raise EscobaError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    shown = {name: _number(value, language) for name, value in params.items()}
    return texts.get(language, texts["en"]).format(**shown)


def _number(value: object, language: str) -> object:
    """Fractions with one decimal, written with a decimal comma where the language uses one."""
    if isinstance(value, float):
        written = f"{value:.1f}"
        return written if language == "en" else written.replace(".", ",")
    return value
