"""The record as HL7 FHIR R4 (issue 47): every demo patient exported by each clinician and trainer who
may see them, each Bundle validated by the maintained `fhir.resources` models (R4B, whose resources
used here are R4's), the codes and units checked against the database, the export audited. No
browser: plain HTTP against the real binary."""
import json
import re

import pytest
from fhir.resources.R4B.bundle import Bundle
from fhir.resources.R4B import get_fhir_model_class

from conftest import RunningServer
from test_faults import Client, query

LOINC = "http://loinc.org"
UCUM = "http://unitsofmeasure.org"


@pytest.fixture
def demo(data_dir):
    running = RunningServer(data_dir, demo=True)
    yield running
    running.stop()


def export(client, patient_id, **period):
    suffix = "?" + "&".join(f"{k}={v}" for k, v in period.items()) if period else ""
    return client.request("GET", f"/patients/{patient_id}/fhir/bundle.json{suffix}")


def validated(body):
    """The Bundle and each of its resources through fhir.resources' models; returns the parsed JSON."""
    data = json.loads(body)
    Bundle.model_validate(data)
    for entry in data["entry"]:
        resource = entry["resource"]
        get_fhir_model_class(resource["resourceType"]).model_validate(resource)
        assert entry["fullUrl"].endswith(f"/fhir/r4/{resource['resourceType']}/{resource['id']}")
    return data


def resources(bundle, kind):
    return [entry["resource"] for entry in bundle["entry"] if entry["resource"]["resourceType"] == kind]


def codes(resource):
    return {(coding["system"], coding["code"]) for coding in resource["code"]["coding"]}


def test_every_demo_patient_exports_a_valid_bundle_for_each_person_who_may_see_them(demo, data_dir):
    staff = {username: Client(demo).log_in(username) for username in ("ana", "nadia", "dani")}
    links = query(data_dir, """
        SELECT user.username, link.patientId FROM clinicianPatient AS link JOIN user ON user.id = link.clinicianId
        UNION SELECT user.username, link.patientId FROM trainerClient AS link JOIN user ON user.id = link.trainerId""")
    links = [(username, patient) for username, patient in links if username in staff]
    assert len(links) >= 4, links
    exported = 0
    for username, patient_id in links:
        status, body, headers = export(staff[username], patient_id)
        assert status == 200, (username, patient_id, body[:300])
        assert headers["Content-Type"].startswith("application/fhir+json")
        assert "attachment" in headers["Content-Disposition"]
        bundle = validated(body)
        exported += 1
        assert bundle["type"] == "collection"
        [patient] = resources(bundle, "Patient")
        assert patient["id"] == str(patient_id)
        assert patient["identifier"][0]["value"] == str(patient_id)
        for observation in resources(bundle, "Observation"):
            assert observation["subject"]["reference"] == f"Patient/{patient_id}"
            if "valueQuantity" in observation:
                assert observation["valueQuantity"]["system"] == UCUM
        evaluations = query(data_dir, "SELECT id, weightGrams, heightMm, takenOn FROM evaluation WHERE patientId = ?", (patient_id,))
        weights = [o for o in resources(bundle, "Observation") if (LOINC, "29463-7") in codes(o)]
        if username in ("dani", "nadia"):
            for evaluation_id, grams, height_mm, taken_on in evaluations:
                [weight] = [o for o in weights if o["id"] == f"eval-{evaluation_id}-weight"]
                assert weight["valueQuantity"]["value"] == pytest.approx(grams / 1000)
                assert weight["valueQuantity"]["code"] == "kg"
                assert weight["effectiveDateTime"] == taken_on
                [height] = [o for o in resources(bundle, "Observation") if o["id"] == f"eval-{evaluation_id}-height"]
                assert (LOINC, "8302-2") in codes(height) and height["valueQuantity"]["value"] == pytest.approx(height_mm / 10)
                fat = [o for o in resources(bundle, "Observation") if o["id"] == f"eval-{evaluation_id}-percent-fat"]
                if fat:
                    assert (LOINC, "41982-0") in codes(fat[0]) and fat[0]["valueQuantity"]["code"] == "%"
                    assert "Siri" in fat[0]["method"]["text"], "the protocol is stated"
        else:
            assert not weights, "a speech therapist's export holds no body composition"
        if username == "nadia":
            meals = query(data_dir, "SELECT count(*) FROM meal WHERE patientId = ?", (patient_id,))[0][0]
            assert len(resources(bundle, "NutritionOrder")) == meals
            answered = query(data_dir, "SELECT count(*) FROM meal WHERE patientId = ? AND status <> 'pending'", (patient_id,))[0][0]
            assert len([o for o in resources(bundle, "Observation") if o["id"].startswith("checkin-")]) == answered
        else:
            assert not resources(bundle, "NutritionOrder")
        if username == "ana":
            games = query(data_dir, "SELECT count(*) FROM educatResult WHERE patientId = ?", (patient_id,))[0][0]
            assert len([o for o in resources(bundle, "Observation") if o["id"].startswith("educat-")]) == games
            taps = query(data_dir, "SELECT coalesce(sum(n), 0) FROM tapDayTotal WHERE patientId = ?", (patient_id,))[0][0]
            assert sum(o["valueQuantity"]["value"] for o in resources(bundle, "Observation") if o["id"].startswith("taps-")) == taps
        goals = resources(bundle, "Goal")
        if goals:
            [plan] = resources(bundle, "CarePlan")
            assert {ref["reference"] for ref in plan["goal"]} == {f"Goal/{goal['id']}" for goal in goals}
        if username == "dani":
            assert all(goal["category"][0]["coding"][0]["code"] == "goal-area-bodyComposition" for goal in goals)
            assert not resources(bundle, "RelatedPerson"), "a trainer is not told who the child's tutors are"
        audits = query(data_dir, """SELECT count(*) FROM auditEntry JOIN user ON user.id = auditEntry.actorId
            WHERE user.username = ? AND action = 'export' AND entity = 'patient' AND entityId = ? AND summary LIKE 'FHIR bundle%'""",
                       (username, patient_id))[0][0]
        assert audits == 1
    assert exported == len(links)


def test_the_export_keeps_to_its_period_and_refuses_a_bad_one_in_the_users_language(demo, data_dir):
    nadia = Client(demo).log_in("nadia")
    patient_id = query(data_dir, """SELECT patientId FROM meal GROUP BY patientId ORDER BY count(*) DESC LIMIT 1""")[0][0]
    days = sorted(row[0] for row in query(data_dir, "SELECT DISTINCT date FROM meal WHERE patientId = ?", (patient_id,)))
    assert len(days) >= 2
    status, body, _ = export(nadia, patient_id, **{"from": days[-1], "to": days[-1]})
    assert status == 200
    bundle = validated(body)
    orders = resources(bundle, "NutritionOrder")
    assert orders and all(order["dateTime"] == days[-1] for order in orders)
    for observation in resources(bundle, "Observation"):
        assert observation["effectiveDateTime"][:10] >= days[-1] or observation["id"].startswith("checkin-")

    status, body, _ = export(nadia, patient_id, **{"from": "2026-02-30"})
    assert status == 422 and "2026-01-31" in body and "field-error" in body
    status, body, _ = export(nadia, patient_id, **{"from": "2026-05-01", "to": "2026-04-01"})
    assert status == 422 and "fim" in body, "nadia reads Portuguese"
    before = query(data_dir, "SELECT count(*) FROM auditEntry WHERE action = 'export'")[0][0]
    assert before == 1, "a refused period exports nothing and audits nothing"


def test_nobody_else_gets_the_record(demo, data_dir):
    ana = Client(demo).log_in("ana")
    dani = Client(demo).log_in("dani")
    bruno = Client(demo).log_in("bruno")
    not_anas = query(data_dir, """SELECT userId FROM patient WHERE userId NOT IN
        (SELECT patientId FROM clinicianPatient WHERE clinicianId = (SELECT id FROM user WHERE username = 'ana'))""")
    assert not_anas
    assert export(ana, not_anas[0][0])[0] == 404
    not_danis = query(data_dir, """SELECT userId FROM patient WHERE userId NOT IN
        (SELECT patientId FROM trainerClient WHERE trainerId = (SELECT id FROM user WHERE username = 'dani'))""")
    assert export(dani, not_danis[0][0])[0] == 404
    brunos = query(data_dir, "SELECT patientId FROM tutorPatient WHERE tutorId = (SELECT id FROM user WHERE username = 'bruno')")
    assert export(bruno, brunos[0][0])[0] == 403
    assert query(data_dir, "SELECT count(*) FROM auditEntry WHERE action = 'export'")[0][0] == 0


def test_the_export_page_is_reached_from_the_patient_and_the_client(demo, data_dir):
    ana = Client(demo).log_in("ana")
    patient_id = query(data_dir, """SELECT patientId FROM clinicianPatient WHERE clinicianId = (SELECT id FROM user WHERE username = 'ana')""")[0][0]
    status, body, _ = ana.get(f"/patients/{patient_id}")
    assert status == 200 and f'href="/patients/{patient_id}/fhir"' in body
    status, body, _ = ana.get(f"/patients/{patient_id}/fhir")
    assert status == 200 and f'action="/patients/{patient_id}/fhir/bundle.json"' in body
    dani = Client(demo).log_in("dani")
    client_id = query(data_dir, "SELECT patientId FROM trainerClient WHERE trainerId = (SELECT id FROM user WHERE username = 'dani')")[0][0]
    status, body, _ = dani.get(f"/clients/{client_id}")
    assert status == 200 and f'href="/patients/{client_id}/fhir"' in body
