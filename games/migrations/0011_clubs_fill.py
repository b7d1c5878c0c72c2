"""Everything stored so far goes into one club, nothing lost and no id changed: every account a
member, staff its owners, whoever created a game or a player a recorder. A fresh database gets
the club too, so that a server with one club works as before out of the box (its owner renames
it)."""

from django.conf import settings
from django.db import migrations

FIRST_CLUB = {"name": "Club", "slug": "club"}


def into_one_club(apps, schema_editor):
    Club = apps.get_model("games", "Club")
    Membership = apps.get_model("games", "Membership")
    User = apps.get_model(settings.AUTH_USER_MODEL)
    Game = apps.get_model("games", "Game")
    Player = apps.get_model("games", "Player")
    club = Club.objects.create(**FIRST_CLUB)
    recorders = set(Game.objects.values_list("owner_id", flat=True).distinct())
    recorders |= set(
        Player.objects.filter(created_by__isnull=False)
        .values_list("created_by_id", flat=True)
        .distinct()
    )
    memberships = []
    for user_id, is_staff, is_superuser in User.objects.values_list(
        "id", "is_staff", "is_superuser"
    ).iterator():
        if is_staff or is_superuser:
            role = "owner"
        elif user_id in recorders:
            role = "recorder"
        else:
            role = "member"
        memberships.append(Membership(club=club, user_id=user_id, role=role))
    Membership.objects.bulk_create(memberships, batch_size=1000)
    Player.objects.filter(club__isnull=True).update(club=club)
    Game.objects.filter(club__isnull=True).update(club=club)
    Job = apps.get_model("scoring", "Job")
    Job.objects.filter(club__isnull=True, kind="import").update(club=club)


def out_of_clubs(apps, schema_editor):
    apps.get_model("games", "Game").objects.update(club=None)
    apps.get_model("games", "Player").objects.update(club=None)
    apps.get_model("scoring", "Job").objects.update(club=None)
    apps.get_model("games", "Club").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_clubs"),
        ("scoring", "0007_clubs"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(into_one_club, out_of_clubs)]
