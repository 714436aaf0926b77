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

__all__ = ["LANGUAGES", "MESSAGES", "Message", "lookup", "text"]

LANGUAGES: Final = ("en", "de", "es", "it")

MESSAGES: Final[Mapping[str, Mapping[str, str]]] = {
    "coach.best": {
        "en": "The best move here.",
        "de": "Der beste Zug hier.",
        "es": "La mejor jugada aquí.",
        "it": "La giocata migliore qui.",
    },
    "coach.close_to_best": {
        "en": "As good as the best move, give or take {points} points.",
        "de": "So gut wie der beste Zug, bis auf {points} Punkte.",
        "es": "Tan buena como la mejor jugada, más o menos {points} puntos.",
        "it": "Buona quanto la giocata migliore, più o meno {points} punti.",
    },
    "coach.costs_points": {
        "en": "Costs about {points} points against {best}.",
        "de": "Kostet etwa {points} Punkte gegenüber {best}.",
        "es": "Cuesta unos {points} puntos frente a {best}.",
        "it": "Costa circa {points} punti rispetto a {best}.",
    },
    "coach.sweeps": {
        "en": "Sweeps the table: a point of its own.",
        "de": "Räumt den Tisch ab: ein eigener Punkt.",
        "es": "Hace escoba: un punto por sí sola.",
        "it": "Fa scopa: un punto a sé.",
    },
    "coach.takes_seven_of_coins": {
        "en": "Takes the 7 of coins, a point by itself.",
        "de": "Holt die Karo-7, allein schon einen Punkt.",
        "es": "Se lleva el siete de oros, un punto por sí solo.",
        "it": "Prende il settebello, un punto da solo.",
    },
    "coach.takes_a_seven": {
        "en": "Takes a seven, which counts for the sevens.",
        "de": "Holt eine Sieben, die für die Siebenen zählt.",
        "es": "Se lleva un siete, que cuenta para la setenta.",
        "it": "Prende un sette, che conta per la primiera.",
    },
    "coach.takes_sevens": {
        "en": "Takes {count} sevens, which count for the sevens.",
        "de": "Holt {count} Siebenen, die für die Siebenen zählen.",
        "es": "Se lleva {count} sietes, que cuentan para la setenta.",
        "it": "Prende {count} sette, che contano per la primiera.",
    },
    "coach.takes_coins": {
        "en": "Takes {count} coins.",
        "de": "Holt {count} Karo.",
        "es": "Se lleva {count} oros.",
        "it": "Prende {count} denari.",
    },
    "coach.takes_cards": {
        "en": "Takes {count} cards.",
        "de": "Nimmt {count} Karten.",
        "es": "Se lleva {count} cartas.",
        "it": "Prende {count} carte.",
    },
    "coach.leaves_sweep": {
        "en": "Leaves {total} on the table, which any {value} sweeps.",
        "de": "Lässt {total} auf dem Tisch liegen, das jede {value} abräumt.",
        "es": "Deja {total} en la mesa, con lo que cualquier {value} hace escoba.",
        "it": "Lascia {total} in tavola: qualsiasi {value} fa scopa.",
    },
    "coach.leaves_match_sweep": {
        "en": "Leaves a table that a single {value} sweeps.",
        "de": "Lässt einen Tisch liegen, den eine einzelne {value} abräumt.",
        "es": "Deja una mesa en la que un solo {value} hace escoba.",
        "it": "Lascia un tavolo dove un solo {value} fa scopa.",
    },
    "coach.gives_seven_of_coins": {
        "en": "Leaves the 7 of coins where the next player can take it.",
        "de": "Lässt die Karo-7 liegen, wo der Nächste sie nehmen kann.",
        "es": "Deja el siete de oros donde el siguiente jugador puede llevárselo.",
        "it": "Lascia il settebello dove il prossimo giocatore può prenderlo.",
    },
    "coach.high_card_on_empty_table": {
        "en": "A high card onto an empty table invites a sweep.",
        "de": "Eine hohe Karte auf den leeren Tisch lädt zur Escoba ein.",
        "es": "Una carta alta en la mesa vacía invita a hacer escoba.",
        "it": "Una carta alta sul tavolo vuoto invita alla scopa.",
    },
    "coach.drops": {
        "en": "Takes nothing: the card stays on the table.",
        "de": "Sticht nichts: die Karte bleibt auf dem Tisch liegen.",
        "es": "No se lleva nada: la carta se queda en la mesa.",
        "it": "Non prende nulla: la carta resta in tavola.",
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
    "play.score_of": {
        "en": "{side} {points}",
        "de": "{side} {points}",
        "es": "{side} {points}",
        "it": "{side} {points}",
    },
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
        "es": "La mesa ({cards}) suma {total}: la toma quien reparte, {who}. Escobas: {sweeps}.",
        "it": "Il tavolo ({cards}) fa {total}: lo prende il mazziere, {who}. Scope: {sweeps}.",
    },
    "play.redeal": {
        "en": "Three or more kings on the table ({cards}): the cards are dealt again.",
        "de": "Drei oder mehr Könige auf dem Tisch ({cards}): es wird neu gegeben.",
        "es": "Tres o más reyes en la mesa ({cards}): se vuelve a repartir.",
        "it": "Tre o più re in tavola ({cards}): si ridistribuiscono le carte.",
    },
    "play.leftovers": {
        "en": "{who} captured last and takes the cards left on the table: {cards}.",
        "de": "{who} hat zuletzt gestochen und nimmt die Karten vom Tisch: {cards}.",
        "es": "{who} capturó el último y se lleva las cartas que quedan en la mesa: {cards}.",
        "it": "{who} ha preso per ultimo e si porta via le carte rimaste in tavola: {cards}.",
    },
    "play.you_leftovers": {
        "en": "You captured last and take the cards left on the table: {cards}.",
        "de": "Du hast zuletzt gestochen und nimmst die Karten vom Tisch: {cards}.",
        "es": "Capturaste el último y te llevas las cartas que quedan en la mesa: {cards}.",
        "it": "Hai preso per ultimo e ti porti via le carte rimaste in tavola: {cards}.",
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
        "es": "La partida ha terminado: gana {winner}. Resultado final: {scores}.",
        "it": "La partita è finita: vince {winner}. Punteggio finale: {scores}.",
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
        "es": "La partida se guarda en {path}; vuelve a verla con: escoba replay ARCHIVO",
        "it": "La partita è conservata in {path}; rivedila con: escoba replay FILE",
    },
    "replay.title": {
        "en": "Replay of a match of {rules}, {players} players, seed {seed}.",
        "de": "Wiedergabe einer Partie {rules}, {players} Spieler, Startwert {seed}.",
        "es": "Repetición de una partida de {rules}, {players} jugadores, semilla {seed}.",
        "it": "Riproduzione di una partita di {rules}, {players} giocatori, seme {seed}.",
    },
    "replay.hands": {
        "en": "Hands dealt: {hands}.",
        "de": "Ausgeteilte Hände: {hands}.",
        "es": "Manos repartidas: {hands}.",
        "it": "Mani distribuite: {hands}.",
    },
    "replay.table": {
        "en": "Table: {cards}.",
        "de": "Tisch: {cards}.",
        "es": "Mesa: {cards}.",
        "it": "Tavolo: {cards}.",
    },
    "replay.unfinished": {
        "en": "The hand was not finished.",
        "de": "Die Runde wurde nicht zu Ende gespielt.",
        "es": "La mano no se terminó.",
        "it": "La mano non è stata completata.",
    },
    "replay.match_unfinished": {
        "en": "The match was not finished. Score: {scores}.",
        "de": "Die Partie wurde nicht beendet. Stand: {scores}.",
        "es": "La partida no se terminó. Puntos: {scores}.",
        "it": "La partita non è stata completata. Punteggio: {scores}.",
    },
    # -- the cheat sheet of a rule set (escoba.cheatsheet)
    "cheat.title": {
        "en": "Cheat sheet: {title}",
        "de": "Spickzettel: {title}",
        "es": "Chuleta: {title}",
        "it": "Promemoria: {title}",
    },
    "cheat.section.taking": {
        "en": "Taking cards",
        "de": "Stechen",
        "es": "Capturar cartas",
        "it": "Prendere le carte",
    },
    "cheat.section.sweeps": {
        "en": "Sweeps",
        "de": "Abräumen",
        "es": "Escobas",
        "it": "Scope",
    },
    "cheat.section.dealing": {
        "en": "Dealing",
        "de": "Geben",
        "es": "Reparto",
        "it": "Distribuzione",
    },
    "cheat.section.scoring": {
        "en": "Scoring each hand",
        "de": "Abrechnung jeder Runde",
        "es": "Puntos de cada mano",
        "it": "Punti di ogni mano",
    },
    "cheat.section.winning": {
        "en": "Winning: first to {target}",
        "de": "Sieg: wer zuerst {target} Punkte hat",
        "es": "Ganar: el primero a {target}",
        "it": "Vittoria: il primo a {target}",
    },
    "cheat.values": {
        "en": "Values: A=1, 2 to 7 as printed, J=8, Q=9, K=10.",
        "de": "Werte: A=1, 2 bis 7 nach Augenzahl, B=8, D=9, K=10.",
        "es": "Valores: as=1, del 2 al 7 lo que marcan, sota=8, caballo=9, rey=10.",
        "it": "Valori: asso=1, dal 2 al 7 quanto indicano, fante=8, cavallo=9, re=10.",
    },
    "cheat.take_sum15": {
        "en": "Play one card; it takes table cards whose values plus its own make exactly 15.",
        "de": (
            "Spiel eine Karte aus; sie sticht Tischkarten, die mit ihr zusammen genau 15 ergeben."
        ),
        "es": (
            "Juega una carta; se lleva las cartas de la mesa cuyos valores, sumados al suyo, dan "
            "exactamente 15."
        ),
        "it": (
            "Gioca una carta; prende le carte in tavola i cui valori, sommati al suo, fanno "
            "esattamente 15."
        ),
    },
    "cheat.take_match": {
        "en": (
            "Play one card; it takes one table card of equal value, or two or more table cards "
            "adding up to its value."
        ),
        "de": (
            "Spiel eine Karte aus; sie sticht eine Tischkarte gleichen Werts oder zwei und mehr "
            "Tischkarten, die zusammen ihren Wert ergeben."
        ),
        "es": (
            "Juega una carta; se lleva una carta de la mesa del mismo valor, o dos o más cartas "
            "de la mesa que sumen su valor."
        ),
        "it": (
            "Gioca una carta; prende una carta in tavola dello stesso valore, o due o più carte "
            "in tavola la cui somma è il suo valore."
        ),
    },
    "cheat.single_card_priority": {
        "en": (
            "Single-card priority: if a table card has the played card's value, the card must "
            "take exactly one such card (your choice which), never a sum."
        ),
        "de": (
            "Einzelkarte zuerst: Liegt eine Karte vom Wert der gespielten auf dem Tisch, sticht "
            "sie genau eine solche (du wählst, welche), nie eine Summe."
        ),
        "es": (
            "Primero la carta sola: si en la mesa hay una carta del valor de la jugada, se lleva "
            "exactamente una de ellas (la que elijas), nunca una suma."
        ),
        "it": (
            "Prima la carta singola: se in tavola c'è una carta del valore di quella giocata, se "
            "ne prende esattamente una (a scelta), mai una somma."
        ),
    },
    "cheat.forced_capture": {
        "en": (
            "Forced capture: play any card you like, but if it can take, it must (you choose "
            "among the sets it can take)."
        ),
        "de": (
            "Stichzwang: Spiel aus, was du willst, aber kann die Karte stechen, muss sie es (du "
            "wählst unter den möglichen Stichen)."
        ),
        "es": (
            "Captura obligatoria: juega la carta que quieras, pero si puede capturar, debe "
            "hacerlo (eliges entre las capturas posibles)."
        ),
        "it": (
            "Presa obbligatoria: gioca la carta che vuoi, ma se può prendere deve farlo (scegli "
            "tra le prese possibili)."
        ),
    },
    "cheat.capture_optional": {
        "en": "Capture is optional: a card that could take may also be dropped.",
        "de": (
            "Stechen ist freiwillig: Eine Karte, die stechen könnte, darf auch einfach auf den "
            "Tisch gelegt werden."
        ),
        "es": (
            "Capturar es opcional: una carta que podría capturar también se puede dejar en la mesa."
        ),
        "it": (
            "Prendere è facoltativo: una carta che potrebbe prendere si può anche calare in tavola."
        ),
    },
    "cheat.drop": {
        "en": "A card that takes nothing is dropped face up onto the table.",
        "de": "Eine Karte, die nichts sticht, bleibt offen auf dem Tisch liegen.",
        "es": "Una carta que no captura nada se deja boca arriba en la mesa.",
        "it": "Una carta che non prende nulla resta scoperta in tavola.",
    },
    "cheat.sweep_sum15": {
        "en": "Emptying the table with a capture is a sweep (escoba): 1 point each.",
        "de": "Wer mit einem Stich den Tisch leer räumt, macht eine Escoba (Besen): je 1 Punkt.",
        "es": "Dejar la mesa vacía con una captura es una escoba: 1 punto cada una.",
        "it": "Svuotare il tavolo con una presa è una scopa (escoba): 1 punto ciascuna.",
    },
    "cheat.sweep_match": {
        "en": "Emptying the table with a capture is a sweep (scopa): 1 point each.",
        "de": "Wer mit einem Stich den Tisch leer räumt, macht einen Scopa (Besen): je 1 Punkt.",
        "es": "Dejar la mesa vacía con una captura es una escoba (scopa): 1 punto cada una.",
        "it": "Svuotare il tavolo con una presa è una scopa: 1 punto ciascuna.",
    },
    "cheat.last_sweep_counts": {
        "en": "A sweep by the very last card of the hand counts too.",
        "de": "Auch das Abräumen mit der allerletzten Karte der Runde zählt.",
        "es": "También cuenta la escoba hecha con la última carta de la mano.",
        "it": "Conta anche la scopa fatta con l'ultima carta della mano.",
    },
    "cheat.last_sweep_void": {
        "en": "Exception: a sweep by the very last card of the hand does not count.",
        "de": "Ausnahme: Das Abräumen mit der allerletzten Karte der Runde zählt nicht.",
        "es": "Excepción: la escoba hecha con la última carta de la mano no cuenta.",
        "it": "Eccezione: la scopa fatta con l'ultima carta della mano non conta.",
    },
    "cheat.leftovers": {
        "en": (
            "At the end of the hand the last side to capture takes the cards left (never a sweep)."
        ),
        "de": (
            "Am Ende der Runde bekommt die restlichen Tischkarten, wer zuletzt gestochen hat (das "
            "zählt nie als Abräumen)."
        ),
        "es": (
            "Al final de la mano, quien capturó el último se lleva las cartas que quedan (nunca "
            "es escoba)."
        ),
        "it": (
            "Alla fine della mano, chi ha preso per ultimo si porta via le carte rimaste (mai "
            "scopa)."
        ),
    },
    "cheat.deal": {
        "en": (
            "3 cards to each seat, 4 face up to the table; the seat after the dealer plays first."
        ),
        "de": (
            "Jeder Platz bekommt 3 Karten, 4 kommen offen auf den Tisch; der Platz nach dem Geber "
            "spielt zuerst aus."
        ),
        "es": (
            "3 cartas a cada asiento y 4 boca arriba a la mesa; empieza el asiento que sigue al "
            "que reparte."
        ),
        "it": "3 carte a ogni posto e 4 scoperte in tavola; comincia il posto dopo il mazziere.",
    },
    "cheat.deal_more": {
        "en": (
            "When the hands are empty, 3 more each (2 players: 6 deals, 3 players: 4, 4 players: "
            "3)."
        ),
        "de": (
            "Sind die Hände leer, gibt es je 3 neue Karten aus dem Stapel (zu zweit 6-mal, zu "
            "dritt 4-mal, zu viert 3-mal)."
        ),
        "es": (
            "Cuando se vacían las manos, 3 cartas más a cada uno (2 jugadores: 6 repartos, 3 "
            "jugadores: 4, 4 jugadores: 3)."
        ),
        "it": (
            "Quando le mani sono vuote, altre 3 carte a testa (2 giocatori: 6 distribuzioni, 3 "
            "giocatori: 4, 4 giocatori: 3)."
        ),
    },
    "cheat.initial_sweeps": {
        "en": (
            "Initial table: if the 4 table cards make 15 the dealer takes them for 1 sweep; 30, 2 "
            "sweeps."
        ),
        "de": (
            "Glücksfall: Ergeben die 4 Tischkarten 15, nimmt der Geber sie als 1 Escoba; bei 30 "
            "als 2 Escobas."
        ),
        "es": (
            "Mesa inicial: si las 4 cartas de la mesa suman 15, quien reparte se las lleva y hace "
            "1 escoba; si suman 30, 2 escobas."
        ),
        "it": (
            "Tavolo iniziale: se le 4 carte in tavola fanno 15 il mazziere le prende e fa 1 "
            "scopa; se fanno 30, 2 scope."
        ),
    },
    "cheat.no_initial_sweeps": {
        "en": "No initial-table sweeps: the first 4 table cards stay, whatever they make.",
        "de": (
            "Kein Glücksfall beim Geben: Die ersten 4 Tischkarten bleiben liegen, was immer sie "
            "ergeben."
        ),
        "es": (
            "Sin escobas de la mesa inicial: las 4 primeras cartas de la mesa se quedan, sumen lo "
            "que sumen."
        ),
        "it": (
            "Niente scope dal tavolo iniziale: le prime 4 carte in tavola restano, qualunque "
            "somma facciano."
        ),
    },
    "cheat.kings_redeal": {
        "en": "Kings redeal: 3 or more kings among the 4 table cards, deal the hand again.",
        "de": (
            "Könige: Liegen 3 oder mehr Könige unter den 4 Tischkarten, wird die Runde neu gegeben."
        ),
        "es": (
            "Reyes: con 3 o más reyes entre las 4 cartas de la mesa, se vuelve a repartir la mano."
        ),
        "it": "Re: con 3 o più re tra le 4 carte in tavola, si ridistribuisce la mano.",
    },
    "cheat.most_cards": {
        "en": "Most cards: 1.",
        "de": "Meiste Karten: 1.",
        "es": "Más cartas: 1.",
        "it": "Più carte: 1.",
    },
    "cheat.most_cards_big": {
        "en": "Most cards: 1 (2 with 30 or more while every other side has fewer than 10).",
        "de": "Meiste Karten: 1 (2 bei 30 oder mehr, wenn jede andere Seite weniger als 10 hat).",
        "es": "Más cartas: 1 (2 con 30 o más si cada uno de los otros bandos tiene menos de 10).",
        "it": "Più carte: 1 (2 con 30 o più se ogni altra parte ne ha meno di 10).",
    },
    "cheat.most_coins": {
        "en": "Most coins: 1.",
        "de": "Meiste Karo: 1.",
        "es": "Más oros: 1.",
        "it": "Più denari: 1.",
    },
    "cheat.most_coins_two": {
        "en": "Most coins: 1 (2 with all 10 coins).",
        "de": "Meiste Karo: 1 (2 mit allen 10 Karo).",
        "es": "Más oros: 1 (2 con los 10 oros).",
        "it": "Più denari: 1 (2 con tutti e 10 i denari).",
    },
    "cheat.seven_of_coins": {
        "en": "Seven of coins: 1.",
        "de": "Karo-7: 1.",
        "es": "Siete de oros: 1.",
        "it": "Settebello: 1.",
    },
    "cheat.setenta": {
        "en": (
            "Setenta: 1. Each side's best card of every suit, ranked {order}; compare them best "
            "first, card by card (a missing suit is worst)."
        ),
        "de": (
            "Setenta: 1. Beste Karte jeder Farbe, Rang {order}; beste gegen beste, Karte für "
            "Karte (fehlende Farbe am schlechtesten)."
        ),
        "es": (
            "Setenta: 1. La mejor carta de cada palo, orden {order}; se comparan de mejor a peor, "
            "una a una (falta un palo: lo peor)."
        ),
        "it": (
            "Setenta: 1. La carta migliore di ogni seme, ordine {order}; si confrontano dalla "
            "migliore, una a una (seme mancante: peggio)."
        ),
    },
    "cheat.setenta_order": {
        "en": "7 > 6 > A > 5 > 4 > 3 > 2 > faces",
        "de": "7 > 6 > A > 5 > 4 > 3 > 2 > Bilder",
        "es": "7 > 6 > as > 5 > 4 > 3 > 2 > figuras",
        "it": "7 > 6 > asso > 5 > 4 > 3 > 2 > figure",
    },
    "cheat.most_sevens": {
        "en": "Most sevens: 1.",
        "de": "Meiste Siebenen: 1.",
        "es": "Más sietes: 1.",
        "it": "Più sette: 1.",
    },
    "cheat.primiera": {
        "en": (
            "Primiera: 1. Highest sum of each suit's best card by {values} (a missing suit adds 0)."
        ),
        "de": (
            "Primiera: 1. Höchste Summe der besten Karte jeder Farbe nach {values} (fehlende "
            "Farbe: 0)."
        ),
        "es": (
            "Primiera: 1. Mayor suma de la mejor carta de cada palo según {values} (palo que "
            "falta: 0)."
        ),
        "it": (
            "Primiera: 1. Somma più alta della carta migliore di ogni seme: {values} (seme "
            "mancante: 0)."
        ),
    },
    "cheat.primiera_all_suits": {
        "en": (
            "Primiera: 1. Highest sum of each suit's best card by {values}; a side missing a suit "
            "cannot win it."
        ),
        "de": (
            "Primiera: 1. Höchste Summe der besten Karte jeder Farbe nach {values}; ohne alle "
            "Farben kein Sieg."
        ),
        "es": (
            "Primiera: 1. Mayor suma de la mejor carta de cada palo según {values}; sin los "
            "cuatro palos no se gana."
        ),
        "it": (
            "Primiera: 1. Somma più alta della carta migliore di ogni seme: {values}; senza tutti "
            "i semi non si vince."
        ),
    },
    "cheat.primiera_values": {
        "en": "7=21 6=18 A=16 5=15 4=14 3=13 2=12 face=10",
        "de": "7=21 6=18 A=16 5=15 4=14 3=13 2=12 Bild=10",
        "es": "7=21 6=18 as=16 5=15 4=14 3=13 2=12 figura=10",
        "it": "7=21 6=18 asso=16 5=15 4=14 3=13 2=12 figura=10",
    },
    "cheat.no_sevens": {
        "en": "No sevens category.",
        "de": "Keine Siebener-Wertung.",
        "es": "Sin categoría de sietes.",
        "it": "Nessuna categoria dei sette.",
    },
    "cheat.all_sevens_bonus": {
        "en": "All four sevens: {points} more.",
        "de": "Alle vier Siebenen: {points} mehr.",
        "es": "Los cuatro sietes: {points} más.",
        "it": "Tutti e quattro i sette: {points} in più.",
    },
    "cheat.point": {
        "en": "{n} point",
        "de": "{n} Punkt",
        "es": "{n} punto",
        "it": "{n} punto",
    },
    "cheat.points": {
        "en": "{n} points",
        "de": "{n} Punkte",
        "es": "{n} puntos",
        "it": "{n} punti",
    },
    "cheat.each_sweep": {
        "en": "Each sweep: 1.",
        "de": "Jedes Abräumen: 1.",
        "es": "Cada escoba: 1.",
        "it": "Ogni scopa: 1.",
    },
    "cheat.tie": {
        "en": "A tie at the top of a category gives nobody the point.",
        "de": "Bei Gleichstand an der Spitze einer Wertung bekommt niemand den Punkt.",
        "es": "Un empate en cabeza de una categoría no da el punto a nadie.",
        "it": "Un pareggio in testa a una categoria non dà il punto a nessuno.",
    },
    "cheat.win": {
        "en": (
            "After each hand, a side with {target} or more points that leads every other side "
            "wins; with a tie at the top, play another hand."
        ),
        "de": (
            "Nach jeder Runde gewinnt, wer {target} oder mehr Punkte hat und vorn liegt; bei "
            "Gleichstand an der Spitze wird noch eine Runde gespielt."
        ),
        "es": (
            "Tras cada mano gana el bando que tenga {target} puntos o más y vaya por delante de "
            "todos los demás; con empate en cabeza, se juega otra mano."
        ),
        "it": (
            "Dopo ogni mano vince chi ha {target} punti o più ed è davanti a tutti gli altri; in "
            "caso di pareggio in testa si gioca un'altra mano."
        ),
    },
    "cheat.win_by": {
        "en": (
            "After each hand, a side with {target} or more points that leads every other side by "
            "at least {win_by} wins; otherwise play another hand."
        ),
        "de": (
            "Nach jeder Runde gewinnt, wer {target} oder mehr Punkte und mindestens {win_by} "
            "Punkte Vorsprung hat; sonst wird noch eine Runde gespielt."
        ),
        "es": (
            "Tras cada mano gana el bando que tenga {target} puntos o más y saque al menos "
            "{win_by} a todos los demás; si no, se juega otra mano."
        ),
        "it": (
            "Dopo ogni mano vince chi ha {target} punti o più e almeno {win_by} di vantaggio su "
            "tutti gli altri; altrimenti si gioca un'altra mano."
        ),
    },
    "cheat.summary.sum15": {
        "en": "sum to 15",
        "de": "Summe 15",
        "es": "sumar 15",
        "it": "somma 15",
    },
    "cheat.summary.match": {
        "en": "match by value (single card first)",
        "de": "gleicher Wert (Einzelkarte zuerst)",
        "es": "por valor (primero la carta sola)",
        "it": "per valore (prima la carta singola)",
    },
    "cheat.summary.capture_optional": {
        "en": "capture optional",
        "de": "Stechen freiwillig",
        "es": "captura opcional",
        "it": "presa facoltativa",
    },
    "cheat.summary.needs_all_suits": {
        "en": "{label} (needs all suits)",
        "de": "{label} (alle Farben nötig)",
        "es": "{label} (con todos los palos)",
        "it": "{label} (servono tutti i semi)",
    },
    "cheat.summary.all_coins_two": {
        "en": "all coins score 2",
        "de": "alle Karo zählen 2",
        "es": "todos los oros valen 2",
        "it": "tutti i denari valgono 2",
    },
    "cheat.summary.big_wins": {
        "en": "big wins",
        "de": "große Siege",
        "es": "victorias grandes",
        "it": "grandi vittorie",
    },
    "cheat.summary.all_sevens": {
        "en": "all sevens +{bonus}",
        "de": "alle Siebenen +{bonus}",
        "es": "los cuatro sietes +{bonus}",
        "it": "tutti i sette +{bonus}",
    },
    "cheat.summary.kings_redeal": {
        "en": "kings redeal",
        "de": "Könige: neu geben",
        "es": "reyes: se reparte de nuevo",
        "it": "re: si ridistribuisce",
    },
    "cheat.summary.last_sweep_void": {
        "en": "last-card sweep void",
        "de": "Abräumen mit letzter Karte zählt nicht",
        "es": "escoba con la última carta no cuenta",
        "it": "scopa all'ultima carta non vale",
    },
    "cheat.summary.no_initial_sweeps": {
        "en": "no initial-table sweeps",
        "de": "kein Glücksfall beim Geben",
        "es": "sin escobas de la mesa inicial",
        "it": "niente scope dal tavolo iniziale",
    },
    "cheat.summary.target": {
        "en": "to {target}",
        "de": "bis {target}",
        "es": "a {target}",
        "it": "a {target}",
    },
    "cheat.summary.target_by": {
        "en": "to {target} by {win_by}",
        "de": "bis {target} mit {win_by} Vorsprung",
        "es": "a {target} por {win_by}",
        "it": "a {target} con {win_by} di scarto",
    },
    "cheat.sevens.ranking": {
        "en": "setenta",
        "de": "Setenta",
        "es": "setenta",
        "it": "setenta",
    },
    "cheat.sevens.sevens": {
        "en": "most sevens",
        "de": "meiste Siebenen",
        "es": "más sietes",
        "it": "più sette",
    },
    "cheat.sevens.primiera": {
        "en": "primiera",
        "de": "Primiera",
        "es": "primiera",
        "it": "primiera",
    },
    "cheat.sevens.none": {
        "en": "no sevens category",
        "de": "keine Siebener-Wertung",
        "es": "sin categoría de sietes",
        "it": "nessuna categoria dei sette",
    },
    "cheat.category.cards": {
        "en": "most cards",
        "de": "meiste Karten",
        "es": "más cartas",
        "it": "più carte",
    },
    "cheat.category.coins": {
        "en": "most coins",
        "de": "meiste Karo",
        "es": "más oros",
        "it": "più denari",
    },
    "cheat.category.seven_of_coins": {
        "en": "seven of coins",
        "de": "Karo-7",
        "es": "siete de oros",
        "it": "settebello",
    },
    "cheat.category.sevens": {
        "en": "sevens category",
        "de": "Siebener-Wertung",
        "es": "categoría de sietes",
        "it": "categoria dei sette",
    },
    "cheat.category.sevens_named": {
        "en": "sevens category ({label})",
        "de": "Siebener-Wertung ({label})",
        "es": "categoría de sietes ({label})",
        "it": "categoria dei sette ({label})",
    },
    "cheat.category.all_sevens": {
        "en": "all four sevens",
        "de": "alle vier Siebenen",
        "es": "los cuatro sietes",
        "it": "i quattro sette",
    },
    "cheat.category.sweeps": {
        "en": "sweeps",
        "de": "Abräumer",
        "es": "escobas",
        "it": "scope",
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
    if language not in LANGUAGES:
        raise EscobaError(f"unknown language {language!r}; choose one of {', '.join(LANGUAGES)}")
    return lookup(MESSAGES, key, language, **params)


def lookup(
    catalogue: Mapping[str, Mapping[str, str]], key: str, language: str, **params: object
) -> str:
    """A text of any catalogue (key, then language), filled in; English where a language (or
    an unknown one) has none. The one place that decides fallback and number format."""
    texts = catalogue.get(key)
    if texts is None:
        raise EscobaError(f"unknown message key {key!r}")
    shown = {name: _number(value, language) for name, value in params.items()}
    return texts.get(language, texts["en"]).format(**shown)


def _number(value: object, language: str) -> object:
    """Fractions with one decimal, written with a decimal comma where the language uses one."""
    if isinstance(value, float):
        written = f"{value:.1f}"
        return written if language == "en" else written.replace(".", ",")
    return value
