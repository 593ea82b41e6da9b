#!/usr/bin/env python3
"""Fills a migrated, empty Tagarela database with a large made-up clinic for bench/mixed, in one
transaction (a few seconds), and signs everybody in: it writes the sessions straight into the
`session` table, as a login would (only the SHA-256 of each token is stored), and the tokens to
SESSIONS_FILE for the load scripts.

Usage: bench/clinic.py DATABASE SESSIONS_FILE [--clinicians 50] [--patients 500] [--boards 1000]
           [--taps 100000] [--heavy-taps 100000] [--meals 20000] [--evaluations 5000]
           [--worklist-patients 500] [--worklist-taps 100000]

Who is who (ids are in SESSIONS_FILE, one line per signed-in user: role, user id, cookie token, CSRF
token, then role-specific fields):
- clinicians: the first half speech therapists (boards, symbols), the second half nutritionists
  (meals); every patient has one of each.
- tutors: one per two patients; patients: children with boards, meals and evaluations.
- trainers: one per 50 patients, each patient a client of one trainer.
- taps: --taps spread over all patients in the last 30 days, plus --heavy-taps for patient #1 alone
  (the usage-history target: a patient with 100 000 taps).
- meals: per patient, half answered (older days) and half pending (the recent days up to today: a meal of a
  later day cannot be answered yet).
- evaluations: per patient, spread over the last years, with 3 skinfolds (jp3) each.
- the worklist clinician ("lista0", speech and nutrition, role "worklist" in SESSIONS_FILE with the
  ids of their patients): follows the first --worklist-patients patients, each of whom counts
  --worklist-taps taps in the last 30 days in the per-day summary `tapDay` (what the overview and the
  worklist read; the `tap` rows themselves are not written, 50 million of them would take hours and
  gigabytes, and no page of the record reads them), and has two tutor notes.
"""
import argparse
import base64
import hashlib
import os
import random
import sqlite3
import sys
from datetime import datetime, timedelta, timezone


def token():
    return base64.urlsafe_b64encode(os.urandom(32)).decode().rstrip("=")


def stamp(moment):
    """A date as GRDB stores it: UTC, milliseconds."""
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M:%S.") + f"{moment.microsecond // 1000:03d}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("database")
    parser.add_argument("sessions")
    for name, default in [("clinicians", 50), ("patients", 500), ("boards", 1000), ("taps", 100_000),
                          ("heavy-taps", 100_000), ("meals", 20_000), ("evaluations", 5_000),
                          ("worklist-patients", 500), ("worklist-taps", 100_000)]:
        parser.add_argument(f"--{name}", type=int, default=default)
    args = parser.parse_args()
    if args.clinicians < 2 or args.patients < 1 or args.boards < args.patients:
        sys.exit("clinic.py: need >= 2 clinicians, >= 1 patient and at least one board per patient")

    rng = random.Random(9)
    now = datetime.now(timezone.utc)
    today = now.date()
    created = stamp(now - timedelta(days=400))
    db = sqlite3.connect(args.database, isolation_level=None)
    db.execute("PRAGMA foreign_keys = ON")
    # A bench fixture: no need to survive a power cut while it is written; keep it in memory until COMMIT.
    db.execute("PRAGMA synchronous = OFF")
    db.execute("PRAGMA cache_size = -262144")
    if db.execute("SELECT count(*) FROM user").fetchone()[0]:
        sys.exit("clinic.py: the database is not empty")
    db.execute("BEGIN IMMEDIATE")

    def add_user(username, name, role, specialties=""):
        cur = db.execute(
            "INSERT INTO user (username, displayName, role, specialties, locale, isActive, createdAt, updatedAt)"
            " VALUES (?, ?, ?, ?, 'pt-BR', 1, ?, ?)", (username, name, role, specialties, created, created))
        return cur.lastrowid

    speech_count = args.clinicians // 2
    speech = [add_user(f"fono{i}", f"Fono {i}", "clinician", "speech") for i in range(speech_count)]
    nutrition = [add_user(f"nutri{i}", f"Nutri {i}", "clinician", "nutrition")
                 for i in range(args.clinicians - speech_count)]
    tutors = [add_user(f"tutor{i}", f"Tutor {i}", "tutor") for i in range((args.patients + 1) // 2)]
    trainers = [add_user(f"treino{i}", f"Treino {i}", "trainer") for i in range((args.patients + 49) // 50)]

    patients = []
    for i in range(args.patients):
        uid = add_user(f"paciente{i}", f"Paciente {i}", "patient")
        sex = "female" if i % 2 else "male"
        birth = (today - timedelta(days=365 * (8 + i % 30))).isoformat()
        db.execute("INSERT INTO patient (userId, birthDate, sex, startedOn) VALUES (?, ?, ?, ?)",
                   (uid, birth, sex, (today - timedelta(days=300)).isoformat()))
        links = [("clinicianPatient", "clinicianId", speech[i % len(speech)]),
                 ("clinicianPatient", "clinicianId", nutrition[i % len(nutrition)]),
                 ("tutorPatient", "tutorId", tutors[i // 2])]
        for table, column, staff in links:
            db.execute(f"INSERT INTO {table} ({column}, patientId, createdAt) VALUES (?, ?, ?)", (staff, uid, created))
        db.execute("INSERT INTO trainerClient (trainerId, patientId, createdAt) VALUES (?, ?, ?)",
                   (trainers[i // 50], uid, created))
        patients.append((uid, sex))

    # Symbols: 30 per speech therapist, in 5 categories; OpenMoji hexcodes the pictogram library knows.
    pictograms = ["1F600", "1F622", "1F34E", "1F34C", "1F95B", "1F4A7", "1F6BD", "1F6CF", "1F3E0", "1F3EB",
                  "1F436", "1F431", "1F697", "26BD", "1F3B5", "1F4DA", "1F44B", "1F64F", "2764", "1F44D"]
    symbols_of = {}
    for clinician in speech:
        categories = []
        for position, colour in enumerate(["yellow", "green", "blue", "pink", "orange"]):
            cur = db.execute("INSERT INTO category (clinicianId, name, colour, position) VALUES (?, ?, ?, ?)",
                             (clinician, f"Categoria {position}", colour, position))
            categories.append(cur.lastrowid)
        symbols_of[clinician] = [
            db.execute("INSERT INTO symbol (clinicianId, categoryId, name, spokenText, pictogram, createdAt, updatedAt)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (clinician, categories[n % 5], f"palavra {n}", f"palavra {n}", pictograms[n % len(pictograms)],
                        created, created)).lastrowid
            for n in range(30)]

    # Boards: 4 x 5, every cell a symbol; spread evenly over the patients.
    plans_of = {uid: [] for uid, _ in patients}
    cells = []
    for b in range(args.boards):
        uid = patients[b % len(patients)][0]
        clinician = speech[(b % len(patients)) % len(speech)]
        cur = db.execute(
            "INSERT INTO plan (patientId, clinicianId, name, startsOn, type, rows, columns, createdAt, updatedAt)"
            " VALUES (?, ?, ?, ?, 'board', 4, 5, ?, ?)",
            (uid, clinician, f"Prancha {b}", (today - timedelta(days=60)).isoformat(), created, created))
        symbols = rng.sample(symbols_of[clinician], 20)
        plans_of[uid].append((cur.lastrowid, symbols))
        cells.extend((cur.lastrowid, position, symbol) for position, symbol in enumerate(symbols))
    db.executemany("INSERT INTO planCell (planId, position, symbolId) VALUES (?, ?, ?)", cells)

    def taps_for(uid, count, days):
        plans = plans_of[uid]
        for _ in range(count):
            plan, symbols = rng.choice(plans)
            at = stamp(now - timedelta(seconds=rng.randrange(days * 86_400)))
            yield (token(), uid, plan, rng.choice(symbols), at, at)

    insert_tap = "INSERT INTO tap (key, patientId, planId, symbolId, at, receivedAt) VALUES (?, ?, ?, ?, ?, ?)"
    per_patient, extra = divmod(args.taps, len(patients))
    for index, (uid, _) in enumerate(patients):
        db.executemany(insert_tap, taps_for(uid, per_patient + (index < extra), 30))
    db.executemany(insert_tap, taps_for(patients[0][0], args.heavy_taps, 30))

    # Meals: a breakfast and a lunch a day with one line each; earlier days answered, the rest pending.
    foods = [row[0] for row in db.execute("SELECT id FROM food ORDER BY id LIMIT 20")]
    if not foods:
        sys.exit("clinic.py: no foods (the server loads its catalogue at start; start it once first)")
    per_patient, extra = divmod(args.meals, len(patients))
    for index, (uid, _) in enumerate(patients):
        count = per_patient + (index < extra)
        clinician = nutrition[index % len(nutrition)]
        first_day = today - timedelta(days=(count - 1) // 2)  # the last meal is today's: every pending one is answerable
        for n in range(count):
            day = first_day + timedelta(days=n // 2)
            meal_type, time = ("breakfast", "07:30") if n % 2 == 0 else ("lunch", "12:30")
            answered = n < count // 2
            cur = db.execute(
                "INSERT INTO meal (patientId, clinicianId, type, date, time, status, answeredAt, hunger, createdAt)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (uid, clinician, meal_type, day.isoformat(), time, "fulfilled" if answered else "pending",
                 stamp(now - timedelta(days=1)) if answered else None, 3 if answered else None, created))
            db.execute("INSERT INTO mealLine (mealId, foodId, quantity, unit, consumedQuantity, position)"
                       " VALUES (?, ?, ?, 'household', ?, 0)",
                       (cur.lastrowid, foods[n % len(foods)], 1, 1 if answered else None))

    # Evaluations: jp3 skinfolds (the sites depend on sex), weight and height, over the last years.
    sites = {"male": ["chest", "abdominal", "thigh"], "female": ["triceps", "suprailiac", "thigh"]}
    per_patient, extra = divmod(args.evaluations, len(patients))
    for index, (uid, sex) in enumerate(patients):
        trainer = trainers[index // 50]
        for n in range(per_patient + (index < extra)):
            cur = db.execute(
                "INSERT INTO evaluation (patientId, trainerId, takenOn, skinfoldProtocol, sex, ageYears, weightGrams,"
                " heightMm, createdAt) VALUES (?, ?, ?, 'jp3', ?, ?, ?, ?, ?)",
                (uid, trainer, (today - timedelta(days=30 * (n + 1))).isoformat(), sex, 8 + index % 30,
                 60_000 + rng.randrange(20_000), 1_600 + rng.randrange(300), created))
            db.executemany("INSERT INTO skinfoldReading (evaluationId, site, reading, tenthsMm) VALUES (?, ?, 1, ?)",
                           [(cur.lastrowid, site, 80 + rng.randrange(150)) for site in sites[sex]])

    # The worklist clinician: many patients, each with a heavy month of taps in the per-day summary
    # (every symbol of every board on every day, as 100 000 taps make it) and two tutor notes.
    followed = patients[:args.worklist_patients]
    lista = add_user("lista0", "Lista 0", "clinician", "speech nutrition") if followed else None
    for index, (uid, _) in enumerate(followed):
        db.execute("INSERT INTO clinicianPatient (clinicianId, patientId, createdAt) VALUES (?, ?, ?)", (lista, uid, created))
        cells = [(plan, symbol) for plan, symbols in plans_of[uid] for symbol in symbols]
        rows = [(uid, (today - timedelta(days=day)).isoformat(), plan, symbol, 0) for day in range(30) for plan, symbol in cells]
        share, extra = divmod(args.worklist_taps, len(rows))
        db.executemany("INSERT INTO tapDay (patientId, day, planId, symbolId, assistedBy, n) VALUES (?, ?, ?, ?, ?, ?)"
                       " ON CONFLICT DO UPDATE SET n = n + excluded.n",
                       [(*row, share + (n < extra)) for n, row in enumerate(rows)])
        tutor = tutors[index // 2]
        for days_ago in (3, 12):
            db.execute("INSERT INTO observation (patientId, authorId, authorName, authorRole, observedOn, body, isPrivate,"
                       " createdAt) VALUES (?, ?, ?, 'tutor', ?, ?, 0, ?)",
                       (uid, tutor, f"Tutor {index // 2}", (today - timedelta(days=days_ago)).isoformat(),
                        "Pediu água com a prancha.", stamp(now - timedelta(days=days_ago))))

    # Sessions for everybody the load scripts act as.
    expires = stamp(now + timedelta(days=7))
    lines = []

    def sign_in(role, uid, *fields):
        cookie, csrf = token(), token()
        db.execute("INSERT INTO session (tokenHash, userId, csrfToken, createdAt, lastSeenAt, expiresAt)"
                   " VALUES (?, ?, ?, ?, ?, ?)",
                   (hashlib.sha256(cookie.encode()).hexdigest(), uid, csrf, stamp(now), stamp(now), expires))
        lines.append("\t".join([role, str(uid), cookie, csrf, *map(str, fields)]))

    for uid, _ in patients:
        plan, symbols = plans_of[uid][0]
        sign_in("patient", uid, plan, ",".join(map(str, symbols)))
    for index, tutor in enumerate(tutors):
        sign_in("tutor", tutor, ",".join(str(uid) for uid, _ in patients[2 * index:2 * index + 2]))
    for clinician in speech + nutrition:
        sign_in("clinician", clinician)
    for index, trainer in enumerate(trainers):
        sign_in("trainer", trainer, ",".join(str(uid) for uid, _ in patients[50 * index:50 * index + 50]))
    if lista:
        sign_in("worklist", lista, ",".join(str(uid) for uid, _ in followed))

    db.execute("COMMIT")
    db.close()
    with open(args.sessions, "w") as out:
        out.write("\n".join(lines) + "\n")
    totals = (f"{args.clinicians} clinicians, {len(tutors)} tutors, {len(trainers)} trainers, {len(patients)} patients,"
              f" {args.boards} boards, {args.taps + args.heavy_taps} taps ({args.heavy_taps} of patient"
              f" {patients[0][0]}), {args.meals} meals, {args.evaluations} evaluations, {len(lines)} sessions;"
              f" a worklist clinician of {len(followed)} patients with {args.worklist_taps} taps each (per-day summary)")
    print(totals)


if __name__ == "__main__":
    main()
